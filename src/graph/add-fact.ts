/**
 * Adding a fact: validate, upsert both entities, classify, then merge with what the graph
 * already holds (see fact-merge.ts) in one write transaction.
 */
import { parseInstant } from '../core/clock.js';
import { UsageError } from '../core/errors.js';
import { type Db, writeTx } from '../store/db.js';
import type { Store } from '../store/store.js';
import { emotionalWeightOf, recordAccess } from './access.js';
import { type EntityInput, upsertEntity } from './entities.js';
import { type MergeFact, planMerge } from './fact-merge.js';
import { type Fact, type Origin, CURRENT, closeFact, getFact, insertFactRow, factsByIds, reconsolidateRow, selectFacts } from './facts.js';
import { bm25Facts } from './fts.js';
import { type MemoryType, classifyMemoryType } from './memory-type.js';
import { type Relation, RELATIONS, normalizeRelation, relationCategory } from './ontology.js';

export const DEFAULT_CONFIDENCE = 0.7;
export const MAX_DESCRIPTION = 2000;

export interface FactInput {
  source: EntityInput;
  target: EntityInput;
  relation: string;
  description: string;
  confidence?: number;
  /** When the fact became true (an event's time); defaults to now. */
  validAt?: string;
  project?: string;
  sourceSession?: string;
  origin?: Origin;
  metadata?: Record<string, unknown>;
  /** Forces the memory type (the dream cycle distils semantic facts). */
  memoryType?: MemoryType;
  /** A user correction: weighs 1.5 in activation. */
  correction?: boolean;
  /** Skip merging (for callers that already decided, e.g. an explicit replacement). */
  noMerge?: boolean;
}

export type AddAction = 'created' | 'duplicate' | 'reconsolidated' | 'superseded' | 'historical';

export interface AddFactResult {
  action: AddAction;
  fact: Fact;
  superseded: number[];
  reason: string;
}

export function parseRelation(raw: string): Relation {
  const relation = normalizeRelation(raw);
  if (!relation) throw new UsageError(`Unknown relation ${JSON.stringify(raw)}.`, `Use one of: ${RELATIONS.join(', ')}.`);
  return relation;
}

export function parseConfidence(value: number | undefined): number {
  if (value === undefined) return DEFAULT_CONFIDENCE;
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new UsageError(`Confidence must be between 0 and 1, got ${value}.`);
  return value;
}

export function parseValidAt(value: string | undefined, name = 'valid-at'): string | undefined {
  if (value === undefined) return undefined;
  const date = parseInstant(value);
  if (!date)
    throw new UsageError(
      `--${name} is not an ISO-8601 date or instant: ${JSON.stringify(value)}.`,
      'Use e.g. 2026-03-01 or 2026-03-01T12:00:00Z.',
    );
  return date.toISOString();
}

/** Current facts a newcomer could duplicate, contradict or restate. */
function mergeCandidates(db: Db, sourceId: number, targetId: number, description: string, now: string): MergeFact[] {
  const near = selectFacts(
    db,
    `(f.source_id = @s OR f.target_id = @t) AND ${CURRENT}`,
    { s: sourceId, t: targetId, now },
    'ORDER BY f.id DESC LIMIT 300',
  );
  const seen = new Set(near.map((f) => f.id));
  const lexical = bm25Facts(db, description, { limit: 10, where: CURRENT, params: { now } }).filter((h) => !seen.has(h.id));
  const extra = lexical.length
    ? factsByIds(
        db,
        lexical.map((h) => h.id),
      )
    : [];
  return [...near, ...extra];
}

export function addFact(store: Store, input: FactInput): AddFactResult {
  const relation = parseRelation(input.relation);
  const description = input.description.replace(/\s+/g, ' ').trim().slice(0, MAX_DESCRIPTION);
  if (!description)
    throw new UsageError(
      'A fact needs a description.',
      'Say what the fact states, e.g. --description "homunculus validates input with zod".',
    );
  const confidence = parseConfidence(input.confidence);
  const eventAt = parseValidAt(input.validAt);
  const now = store.clock.now();
  const nowIso = now.toISOString();
  const validAt = eventAt ?? nowIso;

  return writeTx(store.db, () => {
    const source = upsertEntity(store.db, input.source, nowIso);
    const target = upsertEntity(store.db, input.target, nowIso);
    const memoryType = input.memoryType ?? classifyMemoryType({ relation, description, eventAt, now });
    const involvesError = source.type === 'error_pattern' || target.type === 'error_pattern';
    const row = {
      source_id: source.id,
      target_id: target.id,
      relation,
      category: relationCategory(relation),
      description,
      memory_type: memoryType,
      confidence,
      valid_at: validAt,
      created_at: nowIso,
      emotional_weight: emotionalWeightOf({ relation, correction: input.correction, involvesError }),
      project: input.project ?? '',
      source_session: input.sourceSession ?? '',
      origin: input.origin ?? 'manual',
      metadata: input.metadata ?? {},
    };
    const incoming = { ...row, source: source.name, target: target.name };
    const plan = input.noMerge
      ? { action: 'create' as const, reason: 'merge skipped' }
      : planMerge(incoming, mergeCandidates(store.db, source.id, target.id, description, nowIso));

    switch (plan.action) {
      case 'duplicate': {
        recordAccess(store.db, [plan.of], nowIso, 'reinforce');
        store.db
          .prepare('UPDATE graph_facts SET confidence = MAX(confidence, ?) WHERE id = ? AND memory_type != ?')
          .run(confidence, plan.of, 'episodic');
        return { action: 'duplicate', fact: getFact(store.db, plan.of) as Fact, superseded: [], reason: plan.reason };
      }
      case 'reconsolidate': {
        const old = getFact(store.db, plan.of) as Fact;
        reconsolidateRow(store.db, old, { description, confidence: Math.max(old.confidence, confidence) }, nowIso);
        recordAccess(store.db, [old.id], nowIso, 'reinforce');
        return { action: 'reconsolidated', fact: getFact(store.db, old.id) as Fact, superseded: [], reason: plan.reason };
      }
      case 'historical': {
        const id = insertFactRow(store.db, { ...row, invalid_at: plan.before.valid_at });
        return { action: 'historical', fact: getFact(store.db, id) as Fact, superseded: [], reason: plan.reason };
      }
      case 'supersede': {
        const id = insertFactRow(store.db, row);
        for (const old of plan.of)
          closeFact(store.db, old, { expiredAt: nowIso, invalidAt: validAt, reason: plan.cause, supersededBy: id });
        return { action: 'superseded', fact: getFact(store.db, id) as Fact, superseded: plan.of, reason: plan.reason };
      }
      default: {
        const id = insertFactRow(store.db, row);
        return { action: 'created', fact: getFact(store.db, id) as Fact, superseded: [], reason: plan.reason };
      }
    }
  });
}

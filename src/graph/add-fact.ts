/**
 * Adding a fact: validate, upsert both entities, classify, then merge with what the graph
 * already holds (see fact-merge.ts) in one write transaction.
 */
import { parseInstant } from '../core/clock.js';
import { UsageError } from '../core/errors.js';
import { FACTS_COLLECTION } from '../core/graph-vocabulary.js';
import type { Store } from '../store/store.js';
import { emotionalWeightOf } from './access.js';
import { type EntityInput, upsertEntity } from './entities.js';
import { type MergeFact, type MergePlan, planMerge } from './fact-merge.js';
import { type Fact, type NewFact, type Origin, insertFact, reconsolidateRow } from './facts.js';
import { factTerms } from '../text/terms.js';
import { type MemoryType, classifyMemoryType, isMutable } from './memory-type.js';
import { type Relation, RELATIONS, normalizeRelation, relationCategory } from './ontology.js';

const DEFAULT_CONFIDENCE = 0.7;
const MAX_DESCRIPTION = 2000;

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

/** The current facts whose words best match `description` (BM25 over their search documents). */
function wordNeighbours(store: Store, description: string, now: string, limit: number): number[] {
  const filter = { collections: [FACTS_COLLECTION], facts: { time: { now } } };
  const { ids } = store.documents.matchWords(factTerms(description), { filter, limit });
  return [...store.documents.byRowIds(ids).values()].map((row) => Number(row.ext_id));
}

/** Current facts a newcomer could duplicate, contradict or restate. */
function mergeCandidates(store: Store, sourceId: number, targetId: number, description: string, now: string): MergeFact[] {
  const facts = store.graph.facts;
  const near = facts.list(
    { sameSourceOrTarget: { source_id: sourceId, target_id: targetId }, time: { now } },
    { order: 'recent', limit: 300 },
  );
  const seen = new Set(near.map((f) => f.id));
  const lexical = wordNeighbours(store, description, now, 10).filter((id) => !seen.has(id));
  const extra = lexical.length ? facts.byIds(lexical) : [];
  return [...near, ...extra];
}

/** Carries out the merge plan inside the caller's transaction. */
function applyPlan(store: Store, plan: MergePlan, row: NewFact, candidates: readonly MergeFact[]): AddFactResult {
  const { facts, accesses } = store.graph;
  const at = row.created_at;
  const fact = (id: number) => facts.get(id) as Fact;
  switch (plan.action) {
    case 'duplicate': {
      accesses.record([plan.of], at, 'reinforce');
      const kept = candidates.find((c) => c.id === plan.of);
      if (kept && isMutable(kept.memory_type)) facts.raiseConfidence(plan.of, row.confidence);
      return { action: 'duplicate', fact: fact(plan.of), superseded: [], reason: plan.reason };
    }
    case 'reconsolidate': {
      const old = fact(plan.of);
      reconsolidateRow(store, old, { description: row.description, confidence: Math.max(old.confidence, row.confidence) }, at);
      accesses.record([old.id], at, 'reinforce');
      return { action: 'reconsolidated', fact: fact(old.id), superseded: [], reason: plan.reason };
    }
    case 'historical': {
      const id = insertFact(store, { ...row, invalid_at: plan.before.valid_at });
      return { action: 'historical', fact: fact(id), superseded: [], reason: plan.reason };
    }
    case 'supersede': {
      const id = insertFact(store, row);
      for (const old of plan.of) facts.close(old, { expiredAt: at, invalidAt: row.valid_at, reason: plan.cause, supersededBy: id });
      return { action: 'superseded', fact: fact(id), superseded: plan.of, reason: plan.reason };
    }
    default: {
      const id = insertFact(store, row);
      return { action: 'created', fact: fact(id), superseded: [], reason: plan.reason };
    }
  }
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

  return store.transaction(() => {
    // An entity is seen when its fact held (an imported session's day), as instincts are dated.
    const source = upsertEntity(store, input.source, validAt);
    const target = upsertEntity(store, input.target, validAt);
    const memoryType = input.memoryType ?? classifyMemoryType({ relation, description, eventAt, now });
    const involvesError = source.type === 'error_pattern' || target.type === 'error_pattern';
    const row: NewFact = {
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
    if (input.noMerge) return applyPlan(store, { action: 'create', reason: 'merge skipped' }, row, []);
    const candidates = mergeCandidates(store, source.id, target.id, description, nowIso);
    return applyPlan(store, planMerge({ ...row, source: source.name, target: target.name }, candidates), row, candidates);
  });
}

/**
 * Facts (graph edges): rows, reads, and the low-level writes every higher operation uses.
 *
 * A fact is current when the graph still holds it (expired_at IS NULL) and it has not
 * stopped being true (invalid_at IS NULL or later than now).
 */
import { NotFoundError } from '../core/errors.js';
import { type Db, cachedStatement } from '../store/db.js';
import { parseJson, parseJsonObject } from '../store/json.js';
import type { MemoryType } from './memory-type.js';
import type { Relation, RelationCategory } from './ontology.js';

export type Origin = 'manual' | 'deterministic' | 'llm' | 'dream';
export type ExpiredReason = 'superseded' | 'contradicted' | 'duplicate' | 'decayed' | 'retracted';

export interface HistoryEntry {
  description: string;
  confidence: number;
  reconsolidated_at: string;
}

export interface Fact {
  id: number;
  source_id: number;
  target_id: number;
  source: string;
  target: string;
  relation: Relation;
  category: RelationCategory;
  description: string;
  memory_type: MemoryType;
  confidence: number;
  valid_at: string;
  invalid_at: string | null;
  created_at: string;
  expired_at: string | null;
  superseded_by: number | null;
  expired_reason: ExpiredReason | null;
  emotional_weight: number;
  reconsolidation_count: number;
  history: HistoryEntry[];
  project: string;
  source_session: string;
  origin: Origin;
  metadata: Record<string, unknown>;
  has_embedding: boolean;
}

type FactRow = Omit<Fact, 'history' | 'metadata' | 'has_embedding'> & { history: string; metadata: string; has_embedding: number };

export const FACT_COLUMNS = `f.id, f.source_id, f.target_id, s.name AS source, t.name AS target, f.relation, f.category, f.description,
  f.memory_type, f.confidence, f.valid_at, f.invalid_at, f.created_at, f.expired_at, f.superseded_by, f.expired_reason,
  f.emotional_weight, f.reconsolidation_count, f.history, f.project, f.source_session, f.origin, f.metadata,
  f.embedding IS NOT NULL AS has_embedding`;

export const FACT_FROM = 'graph_facts f JOIN graph_entities s ON s.id = f.source_id JOIN graph_entities t ON t.id = f.target_id';

/** SQL condition for facts current at the bound instant (named parameter @now). */
export const CURRENT = 'f.expired_at IS NULL AND (f.invalid_at IS NULL OR f.invalid_at > @now)';

export function toFact(row: FactRow): Fact {
  return {
    ...row,
    history: parseJson<HistoryEntry[]>(row.history, []),
    metadata: parseJsonObject(row.metadata),
    has_embedding: row.has_embedding === 1,
  };
}

export function selectFacts(db: Db, where: string, params: Record<string, unknown> = {}, tail = 'ORDER BY f.id'): Fact[] {
  return (db.prepare(`SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE ${where} ${tail}`).all(params) as FactRow[]).map(toFact);
}

/** Facts by id (any time, any project), in id order; one statement per connection whatever the ids. */
export function factsByIds(db: Db, ids: readonly number[]): Fact[] {
  if (ids.length === 0) return [];
  const sql = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE f.id IN (SELECT value FROM json_each(?)) ORDER BY f.id`;
  return (cachedStatement(db, sql).all(JSON.stringify([...new Set(ids)])) as FactRow[]).map(toFact);
}

export function getFact(db: Db, id: number): Fact | undefined {
  return selectFacts(db, 'f.id = @id', { id })[0];
}

export function requireFact(db: Db, id: number): Fact {
  const fact = Number.isSafeInteger(id) ? getFact(db, id) : undefined;
  if (!fact) throw new NotFoundError(`fact ${id}`, 'List facts with `homunculus graph facts`.');
  return fact;
}

export const isCurrent = (fact: Pick<Fact, 'expired_at' | 'invalid_at'>, now: Date): boolean =>
  fact.expired_at === null && (fact.invalid_at === null || fact.invalid_at > now.toISOString());

/** The columns a new fact is written with. */
export type NewFactRow = Pick<
  Fact,
  | 'source_id'
  | 'target_id'
  | 'relation'
  | 'category'
  | 'description'
  | 'memory_type'
  | 'confidence'
  | 'valid_at'
  | 'created_at'
  | 'emotional_weight'
  | 'project'
  | 'source_session'
  | 'origin'
  | 'metadata'
> & { invalid_at?: string | null };

/** Inserts the row (the FTS trigger indexes it) and its first access. */
export function insertFactRow(db: Db, row: NewFactRow): number {
  const info = db
    .prepare(
      `INSERT INTO graph_facts (source_id, target_id, relation, category, description, memory_type, confidence, valid_at, invalid_at,
         created_at, emotional_weight, project, source_session, origin, metadata)
       VALUES (@source_id, @target_id, @relation, @category, @description, @memory_type, @confidence, @valid_at, @invalid_at,
         @created_at, @emotional_weight, @project, @source_session, @origin, @metadata)`,
    )
    .run({ ...row, invalid_at: row.invalid_at ?? null, metadata: JSON.stringify(row.metadata) });
  const id = Number(info.lastInsertRowid);
  db.prepare("INSERT INTO graph_fact_access (fact_id, at, kind) VALUES (?, ?, 'create')").run(id, row.created_at);
  return id;
}

/**
 * Closes a fact. `invalidAt` ends its real-world validity (omit it for a fact that was
 * merely forgotten, which closes only the graph dimension).
 */
export function closeFact(
  db: Db,
  id: number,
  close: { expiredAt: string; reason: ExpiredReason; invalidAt?: string; supersededBy?: number },
): void {
  db.prepare(
    `UPDATE graph_facts SET expired_at = @expiredAt, expired_reason = @reason, superseded_by = COALESCE(@supersededBy, superseded_by),
       invalid_at = CASE WHEN @invalidAt IS NULL THEN invalid_at WHEN invalid_at IS NULL OR invalid_at > @invalidAt THEN @invalidAt ELSE invalid_at END
     WHERE id = @id`,
  ).run({
    id,
    expiredAt: close.expiredAt,
    reason: close.reason,
    invalidAt: close.invalidAt ?? null,
    supersededBy: close.supersededBy ?? null,
  });
}

export function countFacts(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM graph_facts').get() as { n: number }).n;
}

/** Current facts touching one of these entities (for merging, expansion and timelines). */
export function currentFactsOf(db: Db, entityIds: readonly number[], now: Date, limit = 500): Fact[] {
  if (entityIds.length === 0) return [];
  const ids = entityIds.map((n) => Math.trunc(n)).join(',');
  return selectFacts(
    db,
    `(f.source_id IN (${ids}) OR f.target_id IN (${ids})) AND ${CURRENT}`,
    { now: now.toISOString() },
    `ORDER BY f.id DESC LIMIT ${Math.trunc(limit)}`,
  );
}

export const MAX_HISTORY = 5;

/** Appends the old version to the history, keeping the latest MAX_HISTORY. Pure. */
export function pushHistory(history: readonly HistoryEntry[], entry: HistoryEntry, max = MAX_HISTORY): HistoryEntry[] {
  return [...history, entry].slice(-max);
}

/**
 * Reconsolidation as a write, unchecked (callers check mutability): the old version goes to
 * history; a changed description drops the embedding, recomputed on the next embedding pass.
 */
export function reconsolidateRow(db: Db, old: Fact, next: { description?: string; confidence?: number }, at: string): void {
  const history = pushHistory(old.history, { description: old.description, confidence: old.confidence, reconsolidated_at: at });
  db.prepare(
    `UPDATE graph_facts SET description = @description, confidence = @confidence, history = @history, reconsolidation_count = reconsolidation_count + 1,
       embedding = CASE WHEN description = @description THEN embedding END,
       embedding_model = CASE WHEN description = @description THEN embedding_model END
     WHERE id = @id`,
  ).run({
    description: next.description ?? old.description,
    confidence: next.confidence ?? old.confidence,
    history: JSON.stringify(history),
    id: old.id,
  });
}

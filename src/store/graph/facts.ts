/** Facts (graph edges): reads by structured filter, and the low-level writes. SQL only; when to write is the graph's rule. */
import { type Db, cachedStatement } from '../db.js';
import { parseJson, parseJsonObject } from '../json.js';
import { type FactFilter, type FactOrder, ORDER_SQL, factWhere } from './filter.js';
import type { ExpiredReason, Fact, FactClose, FactSummary, HistoryEntry, NewFact, Origin } from './records.js';

/** Every fact counted by why it closed and where it came from. */
export interface FactTotals {
  total: number;
  expired: Record<ExpiredReason, number>;
  origins: Record<Origin, number>;
}

export interface FactRepository {
  get(id: number): Fact | undefined;
  /** Facts by id (any time, any project), in id order. */
  byIds(ids: readonly number[]): Fact[];
  list(filter?: FactFilter, options?: { order?: FactOrder; limit?: number }): Fact[];
  count(filter?: FactFilter): number;
  /** Facts touching the entity, at any time: how hubs are recognised. */
  degree(entityId: number): number;
  /** In id order. */
  summaries(filter?: FactFilter): FactSummary[];
  totals(): FactTotals;
  /** Inserts the row (its search document follows by trigger); returns its id. */
  insert(fact: NewFact): number;
  /** Closes a fact; a validity that already ended earlier is kept. */
  close(id: number, close: FactClose): void;
  /** Rewrites the description, confidence and history and counts one reconsolidation (a changed text drops its document's vector). */
  revise(id: number, next: { description: string; confidence: number; history: readonly HistoryEntry[] }): void;
  /** Confidence becomes at least `confidence`. */
  raiseConfidence(id: number, confidence: number): void;
  /**
   * Facts that became true, and facts that stopped being true or were let go (any reason), in
   * [from, to), oldest first, at most `limit` each. Dated as instincts are, by when it happened
   * (valid and invalid time), not when the graph stored it: an imported history's facts belong
   * to its sessions' days. A fact without a valid time counts from when it was stored; one let
   * go without an invalid time, from when it was closed.
   */
  recordedBetween(from: string, to: string, limit: number): { added: Fact[]; expired: Fact[] };
}

type FactRow = Omit<Fact, 'history' | 'metadata'> & { history: string; metadata: string };

const FACT_COLUMNS = `f.id, f.source_id, f.target_id, s.name AS source, t.name AS target, f.relation, f.category, f.description,
  f.memory_type, f.confidence, f.valid_at, f.invalid_at, f.created_at, f.expired_at, f.superseded_by, f.expired_reason,
  f.emotional_weight, f.reconsolidation_count, f.history, f.project, f.source_session, f.origin, f.metadata`;

const FACT_FROM = 'graph_facts f JOIN graph_entities s ON s.id = f.source_id JOIN graph_entities t ON t.id = f.target_id';

const SUMMARY_COLUMNS = 'f.id, f.source_id, f.target_id, f.memory_type, f.confidence, f.emotional_weight, f.reconsolidation_count';

const toFact = (row: FactRow): Fact => ({
  ...row,
  history: parseJson<HistoryEntry[]>(row.history, []),
  metadata: parseJsonObject(row.metadata),
});

const CLOSE = `UPDATE graph_facts SET expired_at = @expiredAt, expired_reason = @reason, superseded_by = COALESCE(@supersededBy, superseded_by),
  invalid_at = CASE WHEN @invalidAt IS NULL THEN invalid_at WHEN invalid_at IS NULL OR invalid_at > @invalidAt THEN @invalidAt ELSE invalid_at END,
  metadata = CASE WHEN @closedBy IS NULL THEN metadata
    ELSE json_set(CASE WHEN json_valid(metadata) THEN metadata ELSE '{}' END, '$.closed_by', @closedBy) END
  WHERE id = @id`;

const REVISE = `UPDATE graph_facts SET description = @description, confidence = @confidence, history = @history,
  reconsolidation_count = reconsolidation_count + 1
  WHERE id = @id`;

const INSERT = `INSERT INTO graph_facts (source_id, target_id, relation, category, description, memory_type, confidence, valid_at, invalid_at,
    created_at, emotional_weight, project, source_session, origin, metadata)
  VALUES (@source_id, @target_id, @relation, @category, @description, @memory_type, @confidence, @valid_at, @invalid_at,
    @created_at, @emotional_weight, @project, @source_session, @origin, @metadata)`;

const DEGREE =
  'SELECT (SELECT COUNT(*) FROM graph_facts WHERE source_id = @e) + (SELECT COUNT(*) FROM graph_facts WHERE target_id = @e) AS n';

function totals(db: Db): FactTotals {
  const rows = cachedStatement(
    db,
    'SELECT expired_reason, origin, COUNT(*) AS n FROM graph_facts GROUP BY expired_reason, origin',
  ).all() as {
    expired_reason: ExpiredReason | null;
    origin: Origin;
    n: number;
  }[];
  const out: FactTotals = {
    total: 0,
    expired: { superseded: 0, contradicted: 0, duplicate: 0, decayed: 0, retracted: 0 },
    origins: { manual: 0, deterministic: 0, llm: 0, dream: 0 },
  };
  for (const r of rows) {
    out.total += r.n;
    if (r.expired_reason) out.expired[r.expired_reason] += r.n;
    out.origins[r.origin] += r.n;
  }
  return out;
}

export function createFactRepository(db: Db): FactRepository {
  const list = (filter: FactFilter = {}, options: { order?: FactOrder; limit?: number } = {}): Fact[] => {
    const where = factWhere(filter);
    const sql = `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE ${where.sql} ORDER BY ${ORDER_SQL[options.order ?? 'id']} LIMIT @limit`;
    return (cachedStatement(db, sql).all({ ...where.params, limit: options.limit ?? -1 }) as FactRow[]).map(toFact);
  };
  return {
    get: (id) => {
      const row = cachedStatement(db, `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE f.id = ?`).get(id) as FactRow | undefined;
      return row ? toFact(row) : undefined;
    },
    byIds: (ids) => (ids.length === 0 ? [] : list({ ids: [...new Set(ids)] })),
    list,
    count(filter = {}) {
      const where = factWhere(filter);
      return (cachedStatement(db, `SELECT COUNT(*) AS n FROM graph_facts f WHERE ${where.sql}`).get(where.params) as { n: number }).n;
    },
    degree: (entityId) => (cachedStatement(db, DEGREE).get({ e: entityId }) as { n: number }).n,
    summaries(filter = {}) {
      const where = factWhere(filter);
      return cachedStatement(db, `SELECT ${SUMMARY_COLUMNS} FROM graph_facts f WHERE ${where.sql} ORDER BY f.id`).all(
        where.params,
      ) as FactSummary[];
    },
    totals: () => totals(db),
    insert: (fact) =>
      Number(
        cachedStatement(db, INSERT).run({ ...fact, invalid_at: fact.invalid_at ?? null, metadata: JSON.stringify(fact.metadata) })
          .lastInsertRowid,
      ),
    close(id, close) {
      cachedStatement(db, CLOSE).run({
        id,
        expiredAt: close.expiredAt,
        reason: close.reason,
        invalidAt: close.invalidAt ?? null,
        supersededBy: close.supersededBy ?? null,
        closedBy: close.closedBy ?? null,
      });
    },
    revise(id, next) {
      cachedStatement(db, REVISE).run({
        id,
        description: next.description,
        confidence: next.confidence,
        history: JSON.stringify(next.history),
      });
    },
    raiseConfidence(id, confidence) {
      cachedStatement(db, 'UPDATE graph_facts SET confidence = MAX(confidence, ?) WHERE id = ?').run(confidence, id);
    },
    recordedBetween(from, to, limit) {
      const between = (at: string) =>
        (
          cachedStatement(
            db,
            `SELECT ${FACT_COLUMNS} FROM ${FACT_FROM} WHERE ${at} >= @from AND ${at} < @to ORDER BY ${at}, f.id LIMIT @limit`,
          ).all({ from, to, limit }) as FactRow[]
        ).map(toFact);
      return {
        added: between('COALESCE(f.valid_at, f.created_at)'),
        expired: between('(CASE WHEN f.expired_at IS NULL THEN NULL ELSE COALESCE(f.invalid_at, f.expired_at) END)'),
      };
    },
  };
}

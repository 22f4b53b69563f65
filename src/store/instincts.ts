/** Instincts, their event log, aliases and convictions: SQL only, no rules. */
import type { EVENT_KINDS } from './corrections-schema.js';
import { type Db, cachedStatement } from './db.js';
import { GLOBAL_SIGHTINGS, latestVerdict, matchTerms, searchRows, sightingProjects, triggerUse, whereOf } from './instinct-queries.js';
import type { InstinctRow, ListFilter, TermMatch } from './instinct-rows.js';

export type { InstinctRow } from './instinct-rows.js';

type NewInstinct = Omit<InstinctRow, 'id' | 'promoted_at' | 'promoted_to' | 'file_name' | 'folded_periods' | 'level'> &
  Partial<Pick<InstinctRow, 'level' | 'folded_periods'>>;

export type EventKind = (typeof EVENT_KINDS)[number];

/** Kinds that record an observation of the pattern (the others change only its score). */
export const OBSERVATION_KINDS: readonly EventKind[] = ['create', 'reinforce', 'import', 'raise', 'alias'];

interface InstinctEvent {
  instinct_id: number;
  ts: string;
  kind: EventKind;
  delta_evidence: number;
  delta_confidence: number;
  source: string;
  project: string;
  detail: string;
}

/** An event of a forgotten instinct: its row is gone, the event stays under its key. */
export type ForgottenEvent = Omit<InstinctEvent, 'instinct_id'> & { id: number; instinct_id: null; pattern: string };

/**
 * Where an instinct's evidence came from, read from its event log: observations made here
 * (create and reinforce events) versus what imports stated ('import' and 'raise' events).
 */
export interface InstinctProvenance {
  /** Occurrences observed on this machine. */
  local_evidence: number;
  /** The first of them, or null when there is none. */
  first_local: string | null;
  /** Created by an import, not by an observation here. */
  imported: boolean;
  /** The user's latest feedback on it: strong, weak or wrong (null: none). */
  verdict: 'strong' | 'weak' | 'wrong' | null;
  /** When it was un-promoted by hand, if that is the latest change to its conviction (null otherwise). */
  unpromoted_at: string | null;
}

export interface ConvictionRow {
  id: number;
  instinct_id: number;
  title: string;
  rule: string;
  created_at: string;
  pattern: string;
}

export interface InstinctRepository {
  get(key: string): InstinctRow | undefined;
  getById(id: number): InstinctRow | undefined;
  insert(row: NewInstinct): InstinctRow;
  update(id: number, fields: Partial<InstinctRow>): void;
  delete(id: number): void;
  /**
   * Forgets an instinct: its events stay, detached under its key, with `event` (a 'forget')
   * as the last of them; the row goes, and with it its conviction, search entries and document.
   */
  forget(row: Pick<InstinctRow, 'id' | 'key'>, event: Omit<InstinctEvent, 'instinct_id' | 'kind'>): void;
  /** When `key` was last forgotten, if it ever was. */
  forgottenAt(key: string): string | undefined;
  /** The events of forgotten instincts of this key, oldest first (the forget events last of each). */
  forgottenEvents(key: string): ForgottenEvent[];
  list(filter?: ListFilter): InstinctRow[];
  count(filter?: Pick<ListFilter, 'project' | 'includeGlobal' | 'seenSince'>): number;
  /** Query syntax (AND by default, OR, NOT, "phrases", prefix*); a query FTS5 cannot parse falls back to substrings. */
  search(query: string, limit?: number): { rows: InstinctRow[]; mode: 'fts' | 'like' };
  /** Instincts holding any of `terms`, best BM25 first. */
  matchTerms(
    terms: readonly string[],
    options: { project?: string; excludePromoted?: boolean; excludeRefuted?: boolean; limit: number },
  ): TermMatch[];
  /** How many instincts in scope name each term in their trigger, and how many are in scope. */
  triggerUse(
    terms: readonly string[],
    options: { project?: string; excludePromoted?: boolean },
  ): { of: Map<string, number>; total: number };
  rebuildIndex(): void;

  addEvent(event: InstinctEvent): void;
  /** Its events; `pattern` is the key an event was recorded under when another instinct was merged into this one, else ''. */
  events(
    instinctId: number,
    options?: { since?: string; kinds?: readonly EventKind[] },
  ): (InstinctEvent & { id: number; pattern: string })[];
  /** Observation events (create, reinforce) of every instinct, oldest first. */
  observationTimes(): { instinct_id: number; ts: string }[];
  /** Instincts with observation events since `since`, busiest first. */
  busiestSince(since: string, limit: number): (InstinctRow & { observations_in_period: number })[];
  /** Moves one instinct's events to another, each keeping the key it was recorded under (`pattern`). */
  moveEvents(fromId: number, toId: number, fromKey: string): void;
  /** Distinct projects an instinct was observed in (its own plus every event's). */
  distinctProjects(id: number): string[];
  /** Distinct project counts for every instinct at once (same rule as distinctProjects). */
  distinctProjectCounts(): Map<number, number>;
  /** Where the hooks give it, by the list filter's rule: the projects it is of, and whether every project gets it. */
  givenIn(id: number): { global: boolean; projects: string[] };
  /** Where the evidence of these instincts came from; an id without events is absent. */
  provenance(ids: readonly number[]): Map<number, InstinctProvenance>;

  resolveAlias(key: string): string;
  setAlias(pattern: string, target: string, at: string): void;
  retargetAliases(from: string, to: string): void;
  listAliases(): { pattern: string; target: string; created_at: string }[];
  /** Removes aliases whose target is neither an instinct nor another alias; returns how many. */
  deleteOrphanAliases(): number;

  addConviction(instinctId: number, title: string, rule: string, at: string): void;
  /** Rewrites a conviction's title and rule (after its instinct was edited); false when it has none. */
  updateConviction(instinctId: number, title: string, rule: string): boolean;
  /** Removes an instinct's conviction; false when it had none. */
  deleteConviction(instinctId: number): boolean;
  convictions(): ConvictionRow[];
}

const UPDATABLE = new Set<keyof InstinctRow>([
  'category',
  'trigger',
  'action',
  'title',
  'domain',
  'project',
  'source',
  'explain',
  'metadata',
  'evidence',
  'level',
  'confidence',
  'folded_periods',
  'first_seen',
  'last_seen',
  'promoted_at',
  'promoted_to',
  'file_name',
]);

const OBSERVED = `(${OBSERVATION_KINDS.map((k) => `'${k}'`).join(', ')})`;

function resolveAlias(db: Db, key: string): string {
  const target = cachedStatement(db, 'SELECT target FROM aliases WHERE pattern = ?');
  let current = key;
  const seen = new Set<string>();
  for (;;) {
    const row = target.get(current) as { target: string } | undefined;
    if (!row || seen.has(row.target)) return current;
    seen.add(current);
    current = row.target;
  }
}

export function createInstinctRepository(db: Db): InstinctRepository {
  const getById = (id: number) => cachedStatement(db, 'SELECT * FROM instincts WHERE id = ?').get(id) as InstinctRow | undefined;
  const distinctProjects = (id: number): string[] => {
    const rows = cachedStatement(
      db,
      `SELECT project FROM instinct_events WHERE instinct_id = ? AND project != '' AND kind IN ${OBSERVED}
       UNION SELECT project FROM instincts WHERE id = ? AND project != ''`,
    ).all(id, id) as { project: string }[];
    return rows.map((r) => r.project).sort();
  };
  return {
    get: (key) => cachedStatement(db, 'SELECT * FROM instincts WHERE key = ?').get(key) as InstinctRow | undefined,
    getById,
    insert(row) {
      const info = cachedStatement(
        db,
        `INSERT INTO instincts (key, category, trigger, action, title, domain, project, source, explain, metadata,
           evidence, level, confidence, folded_periods, first_seen, last_seen)
         VALUES (@key, @category, @trigger, @action, @title, @domain, @project, @source, @explain, @metadata,
           @evidence, @level, @confidence, @folded_periods, @first_seen, @last_seen)`,
      ).run({ level: 0, folded_periods: 0, ...row });
      return getById(Number(info.lastInsertRowid)) as InstinctRow;
    },
    update(id, fields) {
      const keys = (Object.keys(fields) as (keyof InstinctRow)[]).filter((k) => UPDATABLE.has(k) && fields[k] !== undefined);
      if (keys.length === 0) return;
      const sets = keys.map((k) => `${k} = @${k}`).join(', ');
      db.prepare(`UPDATE instincts SET ${sets} WHERE id = @id`).run({ ...Object.fromEntries(keys.map((k) => [k, fields[k]])), id });
    },
    delete: (id) => void cachedStatement(db, 'DELETE FROM instincts WHERE id = ?').run(id),
    forget(row, event) {
      // Detached first, so the row's ON DELETE CASCADE finds none of its events.
      cachedStatement(db, 'UPDATE instinct_events SET instinct_id = NULL, pattern = ? WHERE instinct_id = ?').run(row.key, row.id);
      cachedStatement(
        db,
        `INSERT INTO instinct_events (instinct_id, ts, kind, delta_evidence, delta_confidence, source, project, detail, pattern)
         VALUES (NULL, @ts, 'forget', @delta_evidence, @delta_confidence, @source, @project, @detail, @pattern)`,
      ).run({ ...event, pattern: row.key });
      cachedStatement(db, 'DELETE FROM instincts WHERE id = ?').run(row.id);
    },
    forgottenAt: (key) =>
      (
        cachedStatement(db, "SELECT MAX(ts) AS ts FROM instinct_events WHERE instinct_id IS NULL AND pattern = ? AND kind = 'forget'").get(
          key,
        ) as { ts: string | null }
      ).ts ?? undefined,
    forgottenEvents: (key) =>
      cachedStatement(db, 'SELECT * FROM instinct_events WHERE instinct_id IS NULL AND pattern = ? ORDER BY id').all(
        key,
      ) as ForgottenEvent[],
    list(filter = {}) {
      const { clause, params } = whereOf(filter);
      const order = filter.order === 'recent' ? 'last_seen DESC, id' : 'evidence DESC, last_seen DESC, id';
      const limit = filter.limit !== undefined ? `LIMIT ${Math.max(0, Math.floor(filter.limit))}` : '';
      return db.prepare(`SELECT * FROM instincts ${clause} ORDER BY ${order} ${limit}`).all(params) as InstinctRow[];
    },
    count(filter = {}) {
      const { clause, params } = whereOf(filter);
      return (db.prepare(`SELECT COUNT(*) AS n FROM instincts ${clause}`).get(params) as { n: number }).n;
    },
    search: (query, limit = 20) => searchRows(db, query, limit),
    matchTerms: (terms, options) => matchTerms(db, terms, options),
    triggerUse: (terms, options) => triggerUse(db, terms, options),
    rebuildIndex: () => void db.prepare("INSERT INTO instincts_fts(instincts_fts) VALUES ('rebuild')").run(),

    addEvent(event) {
      cachedStatement(
        db,
        `INSERT INTO instinct_events (instinct_id, ts, kind, delta_evidence, delta_confidence, source, project, detail)
         VALUES (@instinct_id, @ts, @kind, @delta_evidence, @delta_confidence, @source, @project, @detail)`,
      ).run(event);
    },
    events(instinctId, options = {}) {
      const kinds = options.kinds ? `AND kind IN (SELECT value FROM json_each(@kinds))` : '';
      return db.prepare(`SELECT * FROM instinct_events WHERE instinct_id = @id AND ts >= @since ${kinds} ORDER BY ts, id`).all({
        id: instinctId,
        since: options.since ?? '',
        ...(options.kinds ? { kinds: JSON.stringify(options.kinds) } : {}),
      }) as (InstinctEvent & { id: number; pattern: string })[];
    },
    observationTimes: () =>
      db
        .prepare(
          "SELECT instinct_id, ts FROM instinct_events WHERE kind IN ('create', 'reinforce') AND instinct_id IS NOT NULL ORDER BY ts, id",
        )
        .all() as {
        instinct_id: number;
        ts: string;
      }[],
    busiestSince: (since, limit) =>
      db
        .prepare(
          `SELECT i.*, COUNT(e.id) AS observations_in_period FROM instincts i JOIN instinct_events e ON e.instinct_id = i.id
           WHERE e.ts >= ? AND e.kind IN ${OBSERVED}
           GROUP BY i.id ORDER BY observations_in_period DESC, i.last_seen DESC, i.id LIMIT ?`,
        )
        .all(since, limit) as (InstinctRow & { observations_in_period: number })[],
    moveEvents: (fromId, toId, fromKey) =>
      void db
        .prepare(
          "UPDATE instinct_events SET instinct_id = ?, pattern = CASE WHEN pattern = '' THEN ? ELSE pattern END WHERE instinct_id = ?",
        )
        .run(toId, fromKey, fromId),
    distinctProjects,
    givenIn(id) {
      const row = getById(id);
      if (!row) return { global: false, projects: [] };
      const projects = new Set(distinctProjects(id));
      if (row.project !== '') return { global: false, projects: [...projects].sort() };
      // Filed for every project: global when shown again and again in two projects or more (instinct-queries.ts).
      const sighted = cachedStatement(db, sightingProjects('?')).all(row.key) as { project: string; sessions: number }[];
      for (const s of sighted) projects.add(s.project);
      const repeated = sighted.filter((s) => s.sessions >= GLOBAL_SIGHTINGS.sessionsEach).length;
      return { global: sighted.length === 0 || repeated >= GLOBAL_SIGHTINGS.projects, projects: [...projects].sort() };
    },
    distinctProjectCounts() {
      const rows = db
        .prepare(
          `SELECT instinct_id AS id, COUNT(DISTINCT project) AS n FROM (
             SELECT instinct_id, project FROM instinct_events WHERE project != '' AND kind IN ${OBSERVED} AND instinct_id IS NOT NULL
             UNION SELECT id, project FROM instincts WHERE project != ''
           ) GROUP BY instinct_id`,
        )
        .all() as { id: number; n: number }[];
      return new Map(rows.map((r) => [r.id, r.n]));
    },

    provenance(ids) {
      if (ids.length === 0) return new Map();
      const rows = cachedStatement(
        db,
        `SELECT instinct_id AS id,
           COALESCE(SUM(CASE WHEN kind IN ('create', 'reinforce') THEN delta_evidence END), 0) AS local_evidence,
           MIN(CASE WHEN kind IN ('create', 'reinforce') THEN ts END) AS first_local,
           MAX(kind = 'import') AS has_import, MAX(kind = 'create') AS has_create,
           ${latestVerdict('instinct_events.instinct_id')} AS verdict,
           MAX(CASE WHEN kind = 'promote' THEN ts END) AS promoted_at, MAX(CASE WHEN kind = 'unpromote' THEN ts END) AS unpromoted_at
         FROM instinct_events WHERE instinct_id IN (SELECT value FROM json_each(?)) GROUP BY instinct_id`,
      ).all(JSON.stringify(ids)) as {
        id: number;
        local_evidence: number;
        first_local: string | null;
        has_import: number;
        has_create: number;
        verdict: 'strong' | 'weak' | 'wrong' | null;
        promoted_at: string | null;
        unpromoted_at: string | null;
      }[];
      return new Map(
        rows.map((r) => [
          r.id,
          {
            local_evidence: r.local_evidence,
            first_local: r.first_local,
            imported: r.has_import === 1 && r.has_create === 0,
            verdict: r.verdict,
            unpromoted_at:
              r.unpromoted_at !== null && (r.promoted_at === null || r.unpromoted_at >= r.promoted_at) ? r.unpromoted_at : null,
          },
        ]),
      );
    },

    resolveAlias: (key) => resolveAlias(db, key),
    setAlias(pattern, target, at) {
      db.prepare(
        'INSERT INTO aliases (pattern, target, created_at) VALUES (?, ?, ?) ON CONFLICT(pattern) DO UPDATE SET target = excluded.target',
      ).run(pattern, target, at);
    },
    retargetAliases: (from, to) => void db.prepare('UPDATE aliases SET target = ? WHERE target = ?').run(to, from),
    listAliases: () =>
      db.prepare('SELECT * FROM aliases ORDER BY pattern').all() as { pattern: string; target: string; created_at: string }[],
    deleteOrphanAliases: () =>
      db
        .prepare('DELETE FROM aliases WHERE target NOT IN (SELECT key FROM instincts) AND target NOT IN (SELECT pattern FROM aliases)')
        .run().changes,

    addConviction(instinctId, title, rule, at) {
      db.prepare('INSERT INTO convictions (instinct_id, title, rule, created_at) VALUES (?, ?, ?, ?)').run(instinctId, title, rule, at);
    },
    updateConviction: (instinctId, title, rule) =>
      db.prepare('UPDATE convictions SET title = ?, rule = ? WHERE instinct_id = ?').run(title, rule, instinctId).changes > 0,
    deleteConviction: (instinctId) => db.prepare('DELETE FROM convictions WHERE instinct_id = ?').run(instinctId).changes > 0,
    convictions: () =>
      db
        .prepare('SELECT c.*, i.key AS pattern FROM convictions c JOIN instincts i ON i.id = c.instinct_id ORDER BY c.created_at, c.id')
        .all() as ConvictionRow[],
  };
}

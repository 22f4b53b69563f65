/** The instinct table, its event log and aliases: SQL only, no rules. */
import type { Category } from '../core/domain.js';
import type { Db } from './db.js';

export interface InstinctRow {
  id: number;
  key: string;
  category: Category;
  trigger: string;
  action: string;
  title: string;
  domain: string;
  project: string;
  source: string;
  explain: string;
  metadata: string;
  evidence: number;
  level: number;
  confidence: number;
  folded_periods: number;
  first_seen: string;
  last_seen: string;
  promoted_at: string | null;
  promoted_to: string | null;
  file_name: string | null;
}

export type NewInstinct = Omit<InstinctRow, 'id' | 'promoted_at' | 'promoted_to' | 'file_name' | 'folded_periods' | 'level'> &
  Partial<Pick<InstinctRow, 'level' | 'folded_periods'>>;

export type EventKind = 'create' | 'reinforce' | 'decay' | 'feedback' | 'contradiction' | 'import' | 'alias' | 'promote' | 'raise';

export interface InstinctEvent {
  instinct_id: number;
  ts: string;
  kind: EventKind;
  delta_evidence: number;
  delta_confidence: number;
  source: string;
  project: string;
  detail: string;
}

export function getInstinct(db: Db, key: string): InstinctRow | undefined {
  return db.prepare('SELECT * FROM instincts WHERE key = ?').get(key) as InstinctRow | undefined;
}

export function getInstinctById(db: Db, id: number): InstinctRow | undefined {
  return db.prepare('SELECT * FROM instincts WHERE id = ?').get(id) as InstinctRow | undefined;
}

export function insertInstinct(db: Db, row: NewInstinct): InstinctRow {
  const info = db
    .prepare(
      `INSERT INTO instincts (key, category, trigger, action, title, domain, project, source, explain, metadata,
         evidence, level, confidence, folded_periods, first_seen, last_seen)
       VALUES (@key, @category, @trigger, @action, @title, @domain, @project, @source, @explain, @metadata,
         @evidence, @level, @confidence, @folded_periods, @first_seen, @last_seen)`,
    )
    .run({ level: 0, folded_periods: 0, ...row });
  return getInstinctById(db, Number(info.lastInsertRowid)) as InstinctRow;
}

// prettier-ignore
const UPDATABLE = new Set<keyof InstinctRow>([
  'category', 'trigger', 'action', 'title', 'domain', 'project', 'source', 'explain', 'metadata', 'evidence', 'level',
  'confidence', 'folded_periods', 'first_seen', 'last_seen', 'promoted_at', 'promoted_to', 'file_name',
]);

export function updateInstinct(db: Db, id: number, fields: Partial<InstinctRow>): void {
  const keys = (Object.keys(fields) as (keyof InstinctRow)[]).filter((k) => UPDATABLE.has(k) && fields[k] !== undefined);
  if (keys.length === 0) return;
  const sets = keys.map((k) => `${k} = @${k}`).join(', ');
  db.prepare(`UPDATE instincts SET ${sets} WHERE id = @id`).run({ ...Object.fromEntries(keys.map((k) => [k, fields[k]])), id });
}

export function deleteInstinct(db: Db, id: number): void {
  db.prepare('DELETE FROM instincts WHERE id = ?').run(id);
}

export function addEvent(db: Db, event: InstinctEvent): void {
  db.prepare(
    `INSERT INTO instinct_events (instinct_id, ts, kind, delta_evidence, delta_confidence, source, project, detail)
     VALUES (@instinct_id, @ts, @kind, @delta_evidence, @delta_confidence, @source, @project, @detail)`,
  ).run(event);
}

export function listEvents(db: Db, instinctId: number, since?: string): (InstinctEvent & { id: number })[] {
  return db
    .prepare('SELECT * FROM instinct_events WHERE instinct_id = ? AND ts >= ? ORDER BY ts, id')
    .all(instinctId, since ?? '') as (InstinctEvent & { id: number })[];
}

/** Distinct projects an instinct was observed in (its own plus every event's). */
export function distinctProjects(db: Db, instinctId: number): string[] {
  const rows = db
    .prepare(
      `SELECT project FROM instinct_events WHERE instinct_id = ? AND project != '' AND kind IN ('create', 'reinforce', 'import', 'alias', 'raise')
       UNION SELECT project FROM instincts WHERE id = ? AND project != ''`,
    )
    .all(instinctId, instinctId) as { project: string }[];
  return rows.map((r) => r.project).sort();
}

/** Distinct project counts for every instinct at once (same rule as distinctProjects). */
export function distinctProjectCounts(db: Db): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT instinct_id AS id, COUNT(DISTINCT project) AS n FROM (
         SELECT instinct_id, project FROM instinct_events
         WHERE project != '' AND kind IN ('create', 'reinforce', 'import', 'alias', 'raise')
         UNION SELECT id, project FROM instincts WHERE project != ''
       ) GROUP BY instinct_id`,
    )
    .all() as { id: number; n: number }[];
  return new Map(rows.map((r) => [r.id, r.n]));
}

export interface ListFilter {
  category?: Category;
  project?: string;
  /** Also include the global '' bucket when a project is given. */
  includeGlobal?: boolean;
  minEvidence?: number;
  minLevel?: number;
  /** Case-insensitive substring of key, metadata or explain. */
  keyword?: string;
  limit?: number;
}

export function listInstincts(db: Db, filter: ListFilter = {}): InstinctRow[] {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.category) {
    where.push('category = @category');
    params.category = filter.category;
  }
  if (filter.project !== undefined) {
    where.push(filter.includeGlobal ? "(project = @project OR project = '')" : 'project = @project');
    params.project = filter.project;
  }
  if (filter.minEvidence !== undefined) {
    where.push('evidence >= @minEvidence');
    params.minEvidence = filter.minEvidence;
  }
  if (filter.minLevel !== undefined) {
    where.push('level >= @minLevel');
    params.minLevel = filter.minLevel;
  }
  if (filter.keyword) {
    where.push("(key LIKE @keyword ESCAPE '\\' OR metadata LIKE @keyword ESCAPE '\\' OR explain LIKE @keyword ESCAPE '\\')");
    params.keyword = likePattern(filter.keyword);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const limit = filter.limit !== undefined ? `LIMIT ${Math.max(0, Math.floor(filter.limit))}` : '';
  return db.prepare(`SELECT * FROM instincts ${clause} ORDER BY evidence DESC, last_seen DESC, id ${limit}`).all(params) as InstinctRow[];
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function countInstincts(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM instincts').get() as { n: number }).n;
}

/** Turns free text into an FTS5 query of quoted terms, for callers that must never hit a syntax error. */
export function quoteFtsTerms(text: string, joiner: 'AND' | 'OR' = 'AND'): string {
  const terms = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return terms.map((t) => `"${t}"`).join(` ${joiner} `);
}

/**
 * FTS5 search over key, trigger, action, explain and metadata (seed 002 syntax: AND by
 * default, OR, NOT, "phrases", prefix*). A query FTS5 cannot parse falls back to LIKE.
 */
export function searchInstincts(db: Db, query: string, limit = 20): { rows: InstinctRow[]; mode: 'fts' | 'like' } {
  const q = query.trim();
  if (!q) return { rows: [], mode: 'fts' };
  const cap = Math.max(0, Math.floor(limit));
  try {
    const rows = db
      .prepare(
        `SELECT i.* FROM instincts_fts f JOIN instincts i ON i.id = f.rowid
         WHERE instincts_fts MATCH ? ORDER BY i.evidence DESC, bm25(instincts_fts), i.last_seen DESC LIMIT ?`,
      )
      .all(q, cap) as InstinctRow[];
    return { rows, mode: 'fts' };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'SQLITE_ERROR') throw err;
    const like = likePattern(q);
    const rows = db
      .prepare(
        `SELECT * FROM instincts WHERE key LIKE @like ESCAPE '\\' OR explain LIKE @like ESCAPE '\\' OR metadata LIKE @like ESCAPE '\\'
           OR trigger LIKE @like ESCAPE '\\' OR action LIKE @like ESCAPE '\\'
         ORDER BY evidence DESC, last_seen DESC LIMIT @cap`,
      )
      .all({ like, cap }) as InstinctRow[];
    return { rows, mode: 'like' };
  }
}

export function rebuildInstinctIndex(db: Db): void {
  db.prepare("INSERT INTO instincts_fts(instincts_fts) VALUES ('rebuild')").run();
}

export function resolveAlias(db: Db, key: string): string {
  let current = key;
  const seen = new Set<string>();
  for (;;) {
    const row = db.prepare('SELECT target FROM aliases WHERE pattern = ?').get(current) as { target: string } | undefined;
    if (!row || seen.has(row.target)) return current;
    seen.add(current);
    current = row.target;
  }
}

export function setAlias(db: Db, pattern: string, target: string, at: string): void {
  db.prepare(
    'INSERT INTO aliases (pattern, target, created_at) VALUES (?, ?, ?) ON CONFLICT(pattern) DO UPDATE SET target = excluded.target',
  ).run(pattern, target, at);
}

export function listAliases(db: Db): { pattern: string; target: string; created_at: string }[] {
  return db.prepare('SELECT * FROM aliases ORDER BY pattern').all() as { pattern: string; target: string; created_at: string }[];
}

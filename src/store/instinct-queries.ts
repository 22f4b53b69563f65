/** The instinct repository's read queries: list filters, full-text search and term matching over instincts_fts. */
import { words } from '../text/words.js';
import { type Db } from './db.js';
import type { InstinctRow, ListFilter, TermMatch } from './instinct-rows.js';

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards escaped. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Free text as an FTS5 query of quoted terms, for callers that must never hit a syntax error. */
function quoteFtsTerms(text: string, joiner: 'AND' | 'OR' = 'AND'): string {
  return [...words(text)].map((t) => `"${t}"`).join(` ${joiner} `);
}

/** The user's latest verdict on the instinct whose id is the column `id`: 'strong', 'weak', 'wrong', or NULL. */
export const latestVerdict = (id: string): string =>
  `(SELECT f.detail FROM instinct_events f WHERE f.instinct_id = ${id} AND f.kind = 'feedback' ORDER BY f.ts DESC, f.id DESC LIMIT 1)`;

/**
 * An instinct of @project: filed under it, or observed there though filed under the project
 * where it first reached its threshold (a lint fix seen in two checkouts of one repository), or
 * filed for every project and seen in this one's sessions (a correction the user made here).
 */
const ofProject = (alias: string): string =>
  `(${alias}project = @project OR (@project != '' AND (${alias}id IN (SELECT instinct_id FROM instinct_events WHERE project = @project AND kind IN ('create', 'reinforce') AND instinct_id IS NOT NULL)
     OR (${alias}project = '' AND ${alias}key IN (SELECT key FROM pattern_sightings WHERE kind = 'pattern' AND project = @project)))))`;
/**
 * The projects whose sessions showed the pattern `key` (an SQL expression) in two sessions or more,
 * and all those that showed it at all, as `SELECT project, sessions` rows.
 */
export const sightingProjects = (key: string): string =>
  `SELECT s.project AS project, COUNT(DISTINCT s.session_id) AS sessions FROM pattern_sightings s
   WHERE s.kind = 'pattern' AND s.key = ${key} AND s.project != '' GROUP BY s.project`;

/** A pattern filed for every project is global once this many projects each showed it in this many sessions. */
export const GLOBAL_SIGHTINGS = { projects: 2, sessionsEach: 2 } as const;

/**
 * A pattern filed for every project is global when the user showed it again and again in two
 * projects or more; said in one project ("use pnpm, not npm", only in the TypeScript one), or in
 * one and once elsewhere, it is the projects' that showed it, not every project's (a Python one).
 * One with no sighting that names a project (observed by hand, imported, older stores) stays global.
 */
const trulyGlobal = (alias: string): string => {
  // The outer row's key named by its table when it has no alias: a bare `key` in the subquery would be the sighting's own.
  const seen = sightingProjects(`${alias || 'instincts.'}key`);
  // One pass over its sightings: none that names a project, or two projects that showed it twice.
  const { projects, sessionsEach } = GLOBAL_SIGHTINGS;
  return `(${alias}project = '' AND (SELECT COUNT(*) = 0 OR SUM(sessions >= ${sessionsEach}) >= ${projects} FROM (${seen})))`;
};
/** An instinct of @project, or a global one. */
const ofProjectOrGlobal = (alias: string): string => `(${ofProject(alias)} OR ${trulyGlobal(alias)})`;

/** The WHERE clause and its named parameters for a list filter. */
export function whereOf(filter: ListFilter): { clause: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.ids) {
    where.push('id IN (SELECT value FROM json_each(@ids))');
    params.ids = JSON.stringify(filter.ids);
  }
  if (filter.category) {
    where.push('category = @category');
    params.category = filter.category;
  }
  if (filter.project !== undefined) {
    where.push(filter.includeGlobal ? ofProjectOrGlobal('') : ofProject(''));
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
  for (const [i, word] of (filter.words ?? []).entries()) {
    where.push(`(trigger || ' ' || action) LIKE @word${i} ESCAPE '\\'`);
    params[`word${i}`] = likePattern(word);
  }
  if (filter.seenSince !== undefined) {
    where.push('last_seen >= @seenSince');
    params.seenSince = filter.seenSince;
  }
  if (filter.unpromoted) where.push('promoted_at IS NULL');
  if (filter.unrefuted) where.push(`${latestVerdict('instincts.id')} IS NOT 'wrong'`);
  return { clause: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

export function searchRows(db: Db, query: string, limit: number): { rows: InstinctRow[]; mode: 'fts' | 'like' } {
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
    if ((err as { code?: string }).code !== 'SQLITE_ERROR') throw err;
    const rows = db
      .prepare(
        `SELECT * FROM instincts WHERE key LIKE @like ESCAPE '\\' OR explain LIKE @like ESCAPE '\\' OR metadata LIKE @like ESCAPE '\\'
           OR trigger LIKE @like ESCAPE '\\' OR action LIKE @like ESCAPE '\\'
         ORDER BY evidence DESC, last_seen DESC LIMIT @cap`,
      )
      .all({ like: likePattern(q), cap }) as InstinctRow[];
    return { rows, mode: 'like' };
  }
}

export function matchTerms(
  db: Db,
  terms: readonly string[],
  options: { project?: string; excludePromoted?: boolean; excludeRefuted?: boolean; limit: number },
): TermMatch[] {
  if (terms.length === 0 || options.limit <= 0) return [];
  const where = ['instincts_fts MATCH @match'];
  if (options.excludePromoted !== false) where.push('i.promoted_at IS NULL');
  if (options.excludeRefuted) where.push(`${latestVerdict('i.id')} IS NOT 'wrong'`);
  if (options.project !== undefined) where.push(ofProjectOrGlobal('i.'));
  // Column weights: key, trigger, action, explain, metadata.
  const rows = db
    .prepare(
      `SELECT i.*, bm25(instincts_fts, 2.0, 3.0, 1.5, 1.0, 0.5) AS bm25_score
       FROM instincts_fts JOIN instincts i ON i.id = instincts_fts.rowid
       WHERE ${where.join(' AND ')} ORDER BY bm25_score LIMIT @limit`,
    )
    .all({ match: quoteFtsTerms(terms.join(' '), 'OR'), project: options.project ?? '', limit: options.limit }) as (InstinctRow & {
    bm25_score: number;
  })[];
  return rows.map(({ bm25_score, ...row }) => ({ row, bm25: bm25_score }));
}

/** How many instincts in scope have each term in their trigger (FTS5's porter stems), and how many are in scope. */
export function triggerUse(
  db: Db,
  terms: readonly string[],
  options: { project?: string; excludePromoted?: boolean },
): { of: Map<string, number>; total: number } {
  const scope: string[] = [];
  if (options.excludePromoted !== false) scope.push('i.promoted_at IS NULL');
  if (options.project !== undefined) scope.push(ofProjectOrGlobal('i.'));
  const and = scope.map((c) => ` AND ${c}`).join('');
  const count = db.prepare(
    `SELECT COUNT(*) AS n FROM instincts_fts JOIN instincts i ON i.id = instincts_fts.rowid WHERE instincts_fts MATCH @match${and}`,
  );
  const of = new Map<string, number>();
  for (const term of terms) {
    const quoted = quoteFtsTerms(term);
    if (quoted) of.set(term, (count.get({ match: `trigger : (${quoted})`, project: options.project ?? '' }) as { n: number }).n);
  }
  const total = db.prepare(`SELECT COUNT(*) AS n FROM instincts i WHERE 1 = 1${and}`).get({ project: options.project ?? '' }) as {
    n: number;
  };
  return { of, total: total.n };
}

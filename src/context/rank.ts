/**
 * Matching instincts against a query by their terms, for session start and prompt-time
 * injection: SQLite FTS5 BM25 over an OR of the query's terms, plus how many terms each
 * instinct contains (the prompt hook's relevance bar). Hooks use it rather than the hybrid
 * search (search/instincts-rank.ts) because it needs no embedding model and loads fast.
 */
import type { Db } from '../store/db.js';
import { type InstinctRow, quoteFtsTerms } from '../store/instincts.js';
import { matchedTerms, queryTerms } from './terms.js';

export interface RankQuery {
  text: string;
  /** Only global instincts and this project's. */
  project?: string;
  limit: number;
  /** Leave out instincts already promoted to convictions (default true). */
  excludePromoted?: boolean;
}

export interface RankedInstinct {
  row: InstinctRow;
  /** 0..1: normalised BM25 (|s| / (1 + |s|)). */
  relevance: number;
  /** How many distinct query terms the instinct's text contains. */
  matched: number;
  terms: number;
}

export function matchInstincts(db: Db, query: RankQuery): RankedInstinct[] {
  const terms = queryTerms(query.text);
  if (terms.length === 0 || query.limit <= 0) return [];
  const where = ['instincts_fts MATCH @match'];
  if (query.excludePromoted !== false) where.push('i.promoted_at IS NULL');
  if (query.project !== undefined) where.push("(i.project = '' OR i.project = @project)");
  // Column weights: key, trigger, action, explain, metadata.
  const rows = db
    .prepare(
      `SELECT i.*, bm25(instincts_fts, 2.0, 3.0, 1.5, 1.0, 0.5) AS bm25_score
       FROM instincts_fts JOIN instincts i ON i.id = instincts_fts.rowid
       WHERE ${where.join(' AND ')} ORDER BY bm25_score LIMIT @limit`,
    )
    .all({ match: quoteFtsTerms(terms.join(' '), 'OR'), project: query.project ?? '', limit: query.limit }) as (InstinctRow & {
    bm25_score: number;
  })[];
  return rows.map(({ bm25_score, ...row }) => {
    const s = Math.abs(bm25_score);
    return {
      row,
      relevance: s / (1 + s),
      matched: matchedTerms(terms, `${row.key} ${row.trigger} ${row.action} ${row.explain}`),
      terms: terms.length,
    };
  });
}

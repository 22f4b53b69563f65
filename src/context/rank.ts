/**
 * Matching instincts against a query by their terms, for session start and prompt-time
 * injection: SQLite FTS5 BM25 over an OR of the query's terms, plus how many terms each
 * instinct contains (the prompt hook's relevance bar). Hooks use it rather than the hybrid
 * search (search/instincts-rank.ts) because it needs no embedding model and loads fast.
 */
import { isDocumented } from '../learn/documented.js';
import type { InstinctRepository, InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import { matchedTerms } from '../text/stem.js';
import { promptTerms } from '../text/terms.js';
import { realTrigger } from './plain.js';

interface RankQuery {
  text: string;
  /** Only global instincts and this project's. */
  project?: string;
  limit: number;
  /** Leave out instincts already promoted to convictions (default true). */
  excludePromoted?: boolean;
  /** Words that name where the prompt was typed (the project's name), not what it asks. */
  ignore?: readonly string[];
}

export interface RankedInstinct {
  row: InstinctRow;
  /** 0..1: normalised BM25 (|s| / (1 + |s|)). */
  relevance: number;
  /** How many distinct query terms the instinct's text contains. */
  matched: number;
  terms: number;
}

/**
 * What an instinct is about, for the relevance bar: when it applies (its trigger and title),
 * not the examples in its action. One recorded without a trigger is about all it says.
 */
const aboutText = (row: InstinctRow): string =>
  realTrigger(row.key, row.trigger) ? `${row.trigger} ${row.title}` : `${row.key} ${row.title} ${row.action} ${row.explain}`;

/** What a prompt asks, as search terms: the words that name where it was typed (the project's name) left out. */
export function askedTerms(text: string, ignore: readonly string[] = []): string[] {
  const ignored = new Set(ignore.map((w) => w.toLowerCase()));
  return promptTerms(text).filter((t) => !ignored.has(t));
}

export function matchInstincts(instincts: Pick<InstinctRepository, 'matchTerms'>, query: RankQuery): RankedInstinct[] {
  const terms = askedTerms(query.text, query.ignore);
  if (terms.length === 0 || query.limit <= 0) return [];
  const hits = instincts
    .matchTerms(terms, { project: query.project, excludePromoted: query.excludePromoted, limit: query.limit })
    // What the project's CLAUDE.md or AGENTS.md already says, the agent has read.
    .filter(({ row }) => !isDocumented(parseJsonObject(row.metadata)));
  return hits.map(({ row, bm25 }) => {
    const s = Math.abs(bm25);
    return {
      row,
      relevance: s / (1 + s),
      matched: matchedTerms(terms, aboutText(row)),
      terms: terms.length,
    };
  });
}

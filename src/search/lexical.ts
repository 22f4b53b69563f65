/**
 * The lexical lists: BM25 over the porter index, and the trigram index for CJK text and
 * code identifiers. Queries are built from quoted terms, so user text can never be an
 * FTS5 syntax error; explicit FTS5 syntax is tried first and falls back when it fails.
 */
import { LruCache } from '../embed/lru.js';
import { type Db, cachedStatement } from '../store/db.js';
import { contentTerms, looksLikeFtsSyntax, orQuery, shortCjkRuns, trigramTokens } from './query-text.js';
import type { SearchFilter } from './vectors.js';

export interface LexicalList {
  ids: number[];
  /** Positive BM25 (higher is better). */
  scores: number[];
  /** The FTS5 expression that ran ('' when none could be built). */
  expression: string;
  /** True when explicit FTS5 syntax failed to parse and the quoted-terms form ran instead. */
  fellBack: boolean;
}

const EMPTY: LexicalList = { ids: [], scores: [], expression: '', fellBack: false };

/** WHERE clauses over `documents d` for a filter. */
export function filterClauses(filter: SearchFilter): { sql: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.collections && filter.collections.length > 0) {
    where.push('d.collection IN (SELECT value FROM json_each(@collections))');
    params.collections = JSON.stringify(filter.collections);
  }
  if (filter.project !== undefined) {
    where.push('d.project = @project');
    params.project = filter.project;
  }
  if (filter.since) {
    where.push('d.ts >= @since');
    params.since = filter.since;
  }
  if (filter.until) {
    where.push('d.ts <= @until');
    params.until = filter.until;
  }
  return { sql: where.map((w) => ` AND ${w}`).join(''), params };
}

function runMatch(
  db: Db,
  table: 'documents_fts' | 'documents_trigram',
  expression: string,
  filter: SearchFilter,
  limit: number,
): LexicalList {
  const f = filterClauses(filter);
  // The index rows are the documents' rows (triggers keep them in step): without a filter the
  // join would only cost a lookup per match, before the sort (3x the whole query on common words).
  const sql =
    f.sql === ''
      ? `SELECT rowid AS id, -bm25(${table}, 2.0, 1.0) AS score FROM ${table}
         WHERE ${table} MATCH @expr ORDER BY bm25(${table}, 2.0, 1.0) LIMIT @limit`
      : `SELECT d.id AS id, -bm25(${table}, 2.0, 1.0) AS score FROM ${table} JOIN documents d ON d.id = ${table}.rowid
         WHERE ${table} MATCH @expr${f.sql} ORDER BY bm25(${table}, 2.0, 1.0) LIMIT @limit`;
  const rows = cachedStatement(db, sql, { raw: true }).all({ ...f.params, expr: expression, limit }) as [number, number][];
  return { ids: rows.map((r) => r[0]), scores: rows.map((r) => r[1]), expression, fellBack: false };
}

const isSyntaxError = (err: unknown): boolean => (err as { code?: string }).code === 'SQLITE_ERROR';

/** A term is "common" beyond this many documents, and beyond this share of them. */
export const COMMON_TERM_MIN_DOCS = 2000;
export const COMMON_TERM_SHARE = 0.02;

/** Document frequencies (capped) of recent terms, per database; valid while its data version holds. */
const frequencies = new WeakMap<Db, { version: string; cap: number; df: LruCache<string, number> }>();
const TERM_CACHE_SIZE = 4096;

/**
 * How many documents hold each term, counted up to `cap` + 1. Counting reads the term's
 * list of documents, so counts are kept until the documents change: `data_version` moves
 * when another connection commits, `total_changes()` when this one writes.
 */
function documentFrequencies(db: Db, terms: readonly string[], cap: number): number[] {
  const [version] = cachedStatement(db, "SELECT data_version || ':' || total_changes() FROM pragma_data_version", { raw: true }).get() as [
    string,
  ];
  let cached = frequencies.get(db);
  if (!cached || cached.version !== version || cached.cap !== cap) {
    cached = { version, cap, df: new LruCache(TERM_CACHE_SIZE) };
    frequencies.set(db, cached);
  }
  const count = cachedStatement(db, 'SELECT count(*) AS n FROM (SELECT rowid FROM documents_fts WHERE documents_fts MATCH ? LIMIT ?)');
  return terms.map((t) => {
    let n = cached.df.get(t);
    if (n === undefined) {
      n = (count.get(orQuery([t]), cap + 1) as { n: number }).n;
      cached.df.set(t, n);
    }
    return n;
  });
}

/**
 * Drops common query terms while rarer ones remain. BM25 gives a term in 2% of the
 * documents an IDF under 4 (a rare one's is 8 or more), yet scoring it means visiting
 * every document that holds it: on 100k documents one such word costs ~35 ms. Small
 * stores never drop anything (the threshold is at least 2,000 documents), so their
 * ranking is exact BM25. Counts stop at the threshold, so the check stays cheap.
 */
export function selectiveTerms(db: Db, terms: readonly string[], options: { keepOne?: boolean } = {}): string[] {
  const keepOne = options.keepOne ?? true;
  if (terms.length <= 1 && keepOne) return [...terms];
  const approxDocs = (cachedStatement(db, 'SELECT coalesce(max(id), 0) AS n FROM documents').get() as { n: number }).n;
  const cap = Math.max(COMMON_TERM_MIN_DOCS, Math.ceil(approxDocs * COMMON_TERM_SHARE));
  if (approxDocs <= cap) return [...terms];
  const df = documentFrequencies(db, terms, cap);
  const kept = terms.filter((_, i) => (df[i] as number) <= cap);
  if (kept.length > 0 || !keepOne) return kept;
  // Every term is common: keep the rarest.
  let best = 0;
  df.forEach((n, i) => {
    if (n < (df[best] as number)) best = i;
  });
  return [terms[best] as string];
}

/** BM25 over the word index: OR of the query's content words (or the user's own FTS5 syntax). */
export function bm25List(db: Db, query: string, filter: SearchFilter, limit: number, terms = contentTerms(query)): LexicalList {
  if (looksLikeFtsSyntax(query)) {
    try {
      return runMatch(db, 'documents_fts', query, filter, limit);
    } catch (err) {
      if (!isSyntaxError(err)) throw err;
      if (terms.length === 0) return { ...EMPTY, fellBack: true };
      return { ...runMatch(db, 'documents_fts', orQuery(selectiveTerms(db, terms)), filter, limit), fellBack: true };
    }
  }
  if (terms.length === 0) return EMPTY;
  return runMatch(db, 'documents_fts', orQuery(selectiveTerms(db, terms)), filter, limit);
}

/** BM25 over expansion words only; common words are dropped with no fallback (they would cost more than they add). */
export function feedbackList(db: Db, words: readonly string[], filter: SearchFilter, limit: number): LexicalList {
  const kept = selectiveTerms(db, words, { keepOne: false });
  return kept.length === 0 ? EMPTY : runMatch(db, 'documents_fts', orQuery(kept), filter, limit);
}

/**
 * Substring matches for CJK text and identifiers. Tokens of 3+ characters use the
 * trigram index; one- and two-character CJK runs fall back to a LIKE scan.
 */
export function trigramList(db: Db, query: string, filter: SearchFilter, limit: number): LexicalList {
  const tokens = trigramTokens(query);
  if (tokens.length > 0) return runMatch(db, 'documents_trigram', orQuery(tokens), filter, limit);
  const short = shortCjkRuns(query);
  if (short.length === 0) return EMPTY;
  const f = filterClauses(filter);
  const likes = short.map((_, i) => `d.text LIKE @like${i} ESCAPE '\\' OR d.title LIKE @like${i} ESCAPE '\\'`).join(' OR ');
  const params: Record<string, unknown> = { ...f.params, limit };
  short.forEach((s, i) => {
    params[`like${i}`] = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  });
  const rows = db
    .prepare(`SELECT d.id AS id FROM documents d WHERE (${likes})${f.sql} ORDER BY length(d.text), d.id LIMIT @limit`)
    .raw()
    .all(params) as [number][];
  return { ids: rows.map((r) => r[0]), scores: rows.map(() => 1), expression: short.join(' '), fellBack: false };
}

/**
 * The full-text lists over documents: BM25 on the porter word index and on the trigram
 * index, a substring scan for runs too short for trigrams, and the document frequencies
 * that tell common terms from rare ones. Expressions are built here from quoted terms, so
 * user text can never be an FTS5 syntax error; only `matchSyntax` runs the user's own.
 */
import { LruCache } from '../../core/lru.js';
import { type Db, cachedStatement } from '../db.js';
import type { FactFilter } from '../graph/filter.js';
import { FACTS_COLLECTION } from '../../core/graph-vocabulary.js';
import { dataVersion, factRowsOnly, scopeCondition } from './scopes.js';

/** What every list and the vector index can be narrowed to. Instants are ISO-8601, inclusive. */
export interface DocumentFilter {
  collections?: readonly string[];
  project?: string;
  since?: string;
  until?: string;
  /** Documents of the facts collection only when their fact passes this filter; other collections are not affected. */
  facts?: FactFilter;
}

export interface MatchOptions {
  filter: DocumentFilter;
  limit: number;
}

/** Document row ids, best first, with their BM25 scores made positive (higher is better). */
export interface RankedMatches {
  ids: number[];
  scores: number[];
}

export interface FullTextLists {
  /** BM25 over the word index (title weighs 2x): the documents holding any of `terms`. */
  matchWords(terms: readonly string[], options: MatchOptions): RankedMatches;
  /** BM25 for a query in the index's own syntax (phrases, AND, OR, NOT, prefix*); undefined when it does not parse. */
  matchSyntax(query: string, options: MatchOptions): RankedMatches | undefined;
  /** BM25 over the trigram index: the documents containing any of `tokens` (3 characters or more each). */
  matchSubstrings(tokens: readonly string[], options: MatchOptions): RankedMatches;
  /** Documents whose title or text contains any of `fragments` (too short for the trigram index), shortest text first. */
  containing(fragments: readonly string[], options: MatchOptions): number[];
  /** How many documents hold each term, counted up to `cap` + 1; kept until the documents change. */
  termFrequencies(terms: readonly string[], cap: number): number[];
  /** At least the number of documents (the highest row id), read in constant time. */
  countBound(): number;
}

const NONE: RankedMatches = { ids: [], scores: [] };

/** `"a" OR "b"`: an FTS5 expression of quoted terms (quotes inside a term are doubled). */
export function orQuery(terms: readonly string[]): string {
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/** A filter as SQL: conditions on the row id alone (no document read), and conditions on the document `d`. */
interface Clauses {
  row: string;
  doc: string;
  params: Record<string, unknown>;
}

/** The filter's conditions; `row` is the SQL of the document's row id. */
function filterClauses(filter: DocumentFilter, row: string): Clauses {
  const onRow: string[] = [];
  const onDoc: string[] = [];
  const params: Record<string, unknown> = {};
  const collections = filter.collections ?? [];
  if (collections.length === 1 && collections[0] === FACTS_COLLECTION) {
    onRow.push(factRowsOnly(row));
  } else if (collections.length > 0) {
    onDoc.push('d.collection IN (SELECT value FROM json_each(@collections))');
    params.collections = JSON.stringify(collections);
  }
  const scope = scopeCondition(filter.facts, row);
  if (scope) {
    onRow.push(scope.sql);
    Object.assign(params, scope.params);
  }
  const field = (value: string | undefined, condition: string, name: string) => {
    if (value === undefined || value === '') return;
    onDoc.push(condition);
    params[name] = value;
  };
  if (filter.project !== undefined) {
    onDoc.push('d.project = @project');
    params.project = filter.project;
  }
  field(filter.since, 'd.ts >= @since', 'since');
  field(filter.until, 'd.ts <= @until', 'until');
  const and = (list: string[]) => list.map((w) => ` AND ${w}`).join('');
  return { row: and(onRow), doc: and(onDoc), params };
}

function runMatch(db: Db, table: 'documents_fts' | 'documents_trigram', expression: string, options: MatchOptions): RankedMatches {
  const f = filterClauses(options.filter, `${table}.rowid`);
  // The index rows are the documents' rows (triggers keep them in step): a filter that needs no
  // document field is checked on the row id, since the join would cost a lookup per match,
  // before the sort (3x the whole query on common words).
  const sql =
    f.doc === ''
      ? `SELECT rowid AS id, -bm25(${table}, 2.0, 1.0) AS score FROM ${table}
         WHERE ${table} MATCH @expr${f.row} ORDER BY bm25(${table}, 2.0, 1.0) LIMIT @limit`
      : `SELECT d.id AS id, -bm25(${table}, 2.0, 1.0) AS score FROM ${table} JOIN documents d ON d.id = ${table}.rowid
         WHERE ${table} MATCH @expr${f.row}${f.doc} ORDER BY bm25(${table}, 2.0, 1.0) LIMIT @limit`;
  const rows = cachedStatement(db, sql, { raw: true }).all({ ...f.params, expr: expression, limit: options.limit }) as [number, number][];
  return { ids: rows.map((r) => r[0]), scores: rows.map((r) => r[1]) };
}

const isSyntaxError = (err: unknown): boolean => (err as { code?: string }).code === 'SQLITE_ERROR';

function containing(db: Db, fragments: readonly string[], options: MatchOptions): number[] {
  if (fragments.length === 0) return [];
  const f = filterClauses(options.filter, 'd.id');
  const likes = fragments.map((_, i) => `d.text LIKE @like${i} ESCAPE '\\' OR d.title LIKE @like${i} ESCAPE '\\'`).join(' OR ');
  const params: Record<string, unknown> = { ...f.params, limit: options.limit };
  fragments.forEach((s, i) => {
    params[`like${i}`] = `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  });
  const sql = `SELECT d.id AS id FROM documents d WHERE (${likes})${f.row}${f.doc} ORDER BY length(d.text), d.id LIMIT @limit`;
  return (cachedStatement(db, sql, { raw: true }).all(params) as [number][]).map((r) => r[0]);
}

/** Document frequencies (capped) of recent terms, per database; valid while its data version holds. */
const frequencies = new WeakMap<Db, { version: string; cap: number; df: LruCache<string, number> }>();
const TERM_CACHE_SIZE = 4096;

/**
 * Counting reads the term's list of documents, so counts are kept until the documents
 * change: `data_version` moves when another connection commits, `total_changes()` when
 * this one writes.
 */
function termFrequencies(db: Db, terms: readonly string[], cap: number): number[] {
  const version = dataVersion(db);
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

export function createFullTextLists(db: Db): FullTextLists {
  return {
    matchWords: (terms, options) => (terms.length === 0 ? NONE : runMatch(db, 'documents_fts', orQuery(terms), options)),
    matchSyntax(query, options) {
      try {
        return runMatch(db, 'documents_fts', query, options);
      } catch (err) {
        if (isSyntaxError(err)) return undefined;
        throw err;
      }
    },
    matchSubstrings: (tokens, options) => (tokens.length === 0 ? NONE : runMatch(db, 'documents_trigram', orQuery(tokens), options)),
    containing: (fragments, options) => containing(db, fragments, options),
    termFrequencies: (terms, cap) => termFrequencies(db, terms, cap),
    // Fact documents have the row ids below zero (scopes.ts): both ends of the range count.
    countBound: () =>
      (
        cachedStatement(
          db,
          'SELECT coalesce((SELECT max(id) FROM documents), 0) - min(coalesce((SELECT min(id) FROM documents), 0), 0) AS n',
        ).get() as { n: number }
      ).n,
  };
}

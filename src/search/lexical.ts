/**
 * The lexical lists: BM25 over the word index, and the trigram index for CJK text and
 * code identifiers. The lists are asked for by terms, which the store quotes, so user
 * text can never be a syntax error; explicit full-text syntax is tried first and falls
 * back to the terms when it does not parse.
 */
import type { DocumentFilter, DocumentRepository } from '../store/documents/index.js';
import { shortCjkRuns } from '../text/cjk.js';
import { looksLikeFtsSyntax } from '../text/query.js';
import { searchTerms } from '../text/terms.js';
import { trigramTokens } from '../text/trigram.js';

export interface LexicalList {
  ids: number[];
  /** Positive BM25 (higher is better). */
  scores: number[];
  /** True when explicit full-text syntax failed to parse and the query's terms ran instead. */
  fellBack: boolean;
}

const EMPTY: LexicalList = { ids: [], scores: [], fellBack: false };

/** A term is "common" beyond this many documents, and beyond this share of them. */
export const COMMON_TERM_MIN_DOCS = 2000;
export const COMMON_TERM_SHARE = 0.02;

/**
 * Drops common query terms while rarer ones remain. BM25 gives a term in 2% of the
 * documents an IDF under 4 (a rare one's is 8 or more), yet scoring it means visiting
 * every document that holds it: on 100k documents one such word costs ~35 ms. Small
 * stores never drop anything (the threshold is at least 2,000 documents), so their
 * ranking is exact BM25. Counts stop at the threshold, so the check stays cheap.
 */
export function selectiveTerms(documents: DocumentRepository, terms: readonly string[], options: { keepOne?: boolean } = {}): string[] {
  const keepOne = options.keepOne ?? true;
  if (terms.length <= 1 && keepOne) return [...terms];
  const approxDocs = documents.countBound();
  const cap = Math.max(COMMON_TERM_MIN_DOCS, Math.ceil(approxDocs * COMMON_TERM_SHARE));
  if (approxDocs <= cap) return [...terms];
  const df = documents.termFrequencies(terms, cap);
  const kept = terms.filter((_, i) => (df[i] as number) <= cap);
  if (kept.length > 0 || !keepOne) return kept;
  // Every term is common: keep the rarest.
  let best = 0;
  df.forEach((n, i) => {
    if (n < (df[best] as number)) best = i;
  });
  return [terms[best] as string];
}

export interface Bm25Options {
  filter: DocumentFilter;
  limit: number;
  /** The words to look for (default: the query's content words). */
  terms?: readonly string[];
  /** Run full-text syntax the query holds as written (default true). */
  ownSyntax?: boolean;
  /** Drop common terms while rarer ones remain (default true; see selectiveTerms). */
  dropCommon?: boolean;
}

/** BM25 over the word index: OR of the query's content words (or the user's own full-text syntax). */
export function bm25List(documents: DocumentRepository, query: string, options: Bm25Options): LexicalList {
  const { filter, limit } = options;
  const terms = options.terms ?? searchTerms(query);
  const words = (): string[] => (options.dropCommon === false ? [...terms] : selectiveTerms(documents, terms));
  if (options.ownSyntax !== false && looksLikeFtsSyntax(query)) {
    const own = documents.matchSyntax(query, { filter, limit });
    if (own) return { ...own, fellBack: false };
    if (terms.length === 0) return { ...EMPTY, fellBack: true };
    return { ...documents.matchWords(words(), { filter, limit }), fellBack: true };
  }
  if (terms.length === 0) return EMPTY;
  return { ...documents.matchWords(words(), { filter, limit }), fellBack: false };
}

/** BM25 over expansion words only; common words are dropped with no fallback (they would cost more than they add). */
export function feedbackList(documents: DocumentRepository, words: readonly string[], filter: DocumentFilter, limit: number): LexicalList {
  const kept = selectiveTerms(documents, words, { keepOne: false });
  return kept.length === 0 ? EMPTY : { ...documents.matchWords(kept, { filter, limit }), fellBack: false };
}

/**
 * Substring matches for CJK text and identifiers. Tokens of 3+ characters use the
 * trigram index; one- and two-character CJK runs fall back to a substring scan.
 */
export function trigramList(documents: DocumentRepository, query: string, filter: DocumentFilter, limit: number): LexicalList {
  const tokens = trigramTokens(query);
  if (tokens.length > 0) return { ...documents.matchSubstrings(tokens, { filter, limit }), fellBack: false };
  const short = shortCjkRuns(query);
  if (short.length === 0) return EMPTY;
  const ids = documents.containing(short, { filter, limit });
  return { ids, scores: ids.map(() => 1), fellBack: false };
}

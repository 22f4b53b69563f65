/** The tokens a trigram index serves better than a word index. Pure. */
import { cjkRuns, hasCjk } from './cjk.js';
import { MAX_QUERY_TERMS } from './query.js';
import { codeTokens } from './words.js';

/** The shapes of a code identifier: snake_case, camelCase, a dotted or slashed path, letters mixed with digits. */
export function isIdentifier(token: string): boolean {
  return token.includes('_') || /[a-z][A-Z]|[a-zA-Z0-9][./][a-zA-Z]|[a-zA-Z]\d|\d[a-zA-Z]/.test(token);
}

/**
 * Tokens the porter index misses: runs of CJK text, and code identifiers. Each becomes a
 * trigram phrase; tokens shorter than 3 characters cannot use the trigram index.
 */
export function trigramTokens(text: string): string[] {
  const out = new Set<string>();
  for (const token of codeTokens(text)) {
    if (token.length < 3) continue;
    if (hasCjk(token)) {
      for (const run of cjkRuns(token)) if (run.length >= 3) out.add(run);
      continue;
    }
    // The same shapes the store sends to the trigram index.
    if (isIdentifier(token)) out.add(token);
  }
  return [...out].slice(0, MAX_QUERY_TERMS);
}

/** A crude stemmer, and term matching by stem. Pure. */
import { words } from './words.js';

const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'ies', 'ers', 'er', 'ed', 'es', 'ly', 's'];

/** A crude stem (tests -> test, failing -> fail) to compare words the way FTS5's porter stemmer roughly does. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  for (const suffix of SUFFIXES) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) return w.slice(0, -suffix.length);
  }
  return w;
}

/** How many of `terms` occur (by stem) in `text`. */
export function matchedTerms(terms: readonly string[], text: string): number {
  const stems = new Set([...words(text)].map(stem));
  return terms.filter((t) => stems.has(stem(t))).length;
}

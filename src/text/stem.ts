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

/** The stems of a text's words, to test many terms against it. */
export function stemSet(text: string): Set<string> {
  // A snake_case name is its words too (`integration_test` is about integration tests); an acronym's plural ("PRs") is the acronym.
  return new Set(
    [...words(text)]
      .flatMap((w) => [w, ...(w.includes('_') ? w.split('_') : []), ...(/^[a-z]{2}s$/.test(w) ? [w.slice(0, 2)] : [])])
      .map(stem),
  );
}

/** How many of `terms` occur (by stem) in `text` (or in its stem set). */
export function matchedTerms(terms: readonly string[], text: string | ReadonlySet<string>): number {
  const stems = typeof text === 'string' ? stemSet(text) : text;
  return terms.filter((t) => stems.has(stem(t))).length;
}

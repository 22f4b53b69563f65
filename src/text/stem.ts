/** A crude stemmer, and term matching by stem. Pure. */
import { words } from './words.js';

const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'ies', 'ers', 'er', 'ed', 'es', 'ly', 's'];

/** Verb endings that double a final consonant before them: commit -> committing, stop -> stopped (a runner is no run). */
const DOUBLING = new Set(['ings', 'ing', 'ed']);

/** A crude stem (tests -> test, failing -> fail, committing -> commit) to compare words the way FTS5's porter stemmer roughly does. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  for (const suffix of SUFFIXES) {
    if (!(w.length > suffix.length + 2 && w.endsWith(suffix))) continue;
    const base = w.slice(0, -suffix.length);
    // A doubled consonant is undone (committ -> commit), but not the ll, ss, zz words end in (install, pass).
    return DOUBLING.has(suffix) && /([^aeiouylsz])\1$/.test(base) ? base.slice(0, -1) : base;
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

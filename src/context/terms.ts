/** Query terms from free text (a prompt, a project description): pure. */

const STOPWORDS = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below between both but by
  can can't cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't
  have haven't having he her here hers herself him himself his how i if in into is isn't it it's its itself just let let's me might
  more most mustn't my myself no nor not now of off on once only or other ought our ours ourselves out over own please same shan't she
  should shouldn't so some such than that that's the their theirs them themselves then there there's these they this those through to
  too under until up us very was wasn't we were weren't what what's when where which while who whom why will with won't would wouldn't
  you your yours yourself yourselves yes yeah ok okay hey hi thanks thank sure maybe really actually still want need like make get got
  go going look see think know way thing things something anything one two new use used using via etc lets`.split(/\s+/),
);

/** Lower-cased words of at least 3 characters (or 2 digits), without stop words, deduplicated, at most `max`. */
export function queryTerms(text: string, max = 32): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = m[0];
    if (word.length < 3 && !/^\d{2,}$/.test(word)) continue;
    if (STOPWORDS.has(word) || seen.has(word)) continue;
    seen.add(word);
    out.push(word);
    if (out.length >= max) break;
  }
  return out;
}

/** A crude stem (tests -> test, failing -> fail) to compare words the way FTS5's porter stemmer roughly does. */
export function stem(word: string): string {
  const w = word.toLowerCase();
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ers', 'er', 'ed', 'es', 'ly', 's']) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) return w.slice(0, -suffix.length);
  }
  return w;
}

/** How many of `terms` occur (by stem) in `text`. */
export function matchedTerms(terms: readonly string[], text: string): number {
  const stems = new Set([...text.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => stem(m[0])));
  return terms.filter((t) => stems.has(stem(t))).length;
}

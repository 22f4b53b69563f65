/**
 * Pseudo-relevance feedback: words that several of the best lexical hits share, which
 * the query did not say, become a second lexical list.
 */
import { searchTerms } from '../text/terms.js';

/** Up to `n` words occurring in at least two of `texts` and not in the query, most shared first. */
export function feedbackTerms(texts: readonly string[], queryTerms: readonly string[], n: number): string[] {
  const known = new Set(queryTerms);
  const docFreq = new Map<string, number>();
  const firstSeen = new Map<string, number>();
  let position = 0;
  for (const text of texts) {
    for (const term of new Set(searchTerms(text))) {
      if (known.has(term) || /^\d+$/.test(term)) continue;
      docFreq.set(term, (docFreq.get(term) ?? 0) + 1);
      if (!firstSeen.has(term)) firstSeen.set(term, position++);
    }
  }
  return [...docFreq.entries()]
    .filter(([, df]) => df >= 2)
    .sort((a, b) => b[1] - a[1] || (firstSeen.get(a[0]) ?? 0) - (firstSeen.get(b[0]) ?? 0))
    .slice(0, n)
    .map(([t]) => t);
}

/** Phrases of free text that could be a name. Pure. */
import { SEARCH_STOP } from './terms.js';
import { wordsAsWritten } from './words.js';

/**
 * Runs of one to `maxWords` adjacent words of the text, as written (case kept), skipping
 * runs that start or end with a search stop word or a single letter: the phrases that
 * could be a name.
 */
export function candidatePhrases(text: string, maxWords = 3, maxPhrases = 64): string[] {
  const words = wordsAsWritten(text);
  const weak = (w: string) => w.length < 2 || SEARCH_STOP.has(w.toLowerCase());
  const out = new Set<string>();
  for (let i = 0; i < words.length && out.size < maxPhrases; i++) {
    if (weak(words[i] as string)) continue;
    for (let n = 1; n <= maxWords && i + n <= words.length; n++) {
      if (!weak(words[i + n - 1] as string)) out.add(words.slice(i, i + n).join(' '));
    }
  }
  return [...out].slice(0, maxPhrases);
}

/** Text and vector similarity used by deduplication, chunking and search. Pure. */
import { wordSet } from '../text/words.js';

/** |A ∩ B| / |A ∪ B|; two empty sets are not similar (0). */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

export function textJaccard(a: string, b: string): number {
  return jaccard(wordSet(a), wordSet(b));
}

/** Two descriptions with Jaccard above 0.85 state the same fact. */
export const JACCARD_DUPLICATE = 0.85;
/** Two embeddings with cosine above 0.92 state the same fact. */
export const COSINE_DUPLICATE = 0.92;

// One implementation of the vector maths for the whole engine.
export { cosine } from '../embed/vector-math.js';

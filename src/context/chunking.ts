/**
 * Baddeley's working memory: retrieved facts are grouped into at most 5
 * thematic chunks. A fact joins a chunk of its category whose words overlap its own by
 * more than 0.2 (Jaccard); otherwise it opens a new chunk while there are fewer than 5;
 * past that it joins the closest chunk of its category, else the closest chunk. Pure.
 */
import { jaccard } from '../graph/similarity.js';
import { wordSet } from '../text/words.js';
import type { Category } from './queries.js';

export const MAX_CHUNKS = 5;
const CHUNK_OVERLAP = 0.2;

interface Chunkable {
  id: number;
  category: Category;
  text: string;
}

interface Chunk<T extends Chunkable> {
  category: Category;
  items: T[];
  words: Set<string>;
}

export function chunkFacts<T extends Chunkable>(items: readonly T[], max = MAX_CHUNKS): Chunk<T>[] {
  const chunks: Chunk<T>[] = [];
  for (const item of items) {
    const w = wordSet(item.text);
    const scored = chunks.map((c) => ({ c, overlap: jaccard(w, c.words) }));
    const sameCategory = scored.filter((s) => s.c.category === item.category).sort((a, b) => b.overlap - a.overlap);
    let target = sameCategory[0] && sameCategory[0].overlap > CHUNK_OVERLAP ? sameCategory[0].c : undefined;
    if (!target && chunks.length < max) {
      target = { category: item.category, items: [], words: new Set() };
      chunks.push(target);
    }
    target ??= sameCategory[0]?.c ?? scored.sort((a, b) => b.overlap - a.overlap)[0]?.c;
    if (!target) continue;
    target.items.push(item);
    for (const x of w) target.words.add(x);
  }
  return chunks;
}

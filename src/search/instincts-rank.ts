/**
 * Ranking instincts for a context (session start, a prompt) with the hybrid pipeline over
 * the instincts collection, which mirrors the instincts table (store/documents-schema.ts).
 */
import type { InstinctRow } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import type { Embedder } from './embeddings.js';
import { search } from './search.js';

export interface RankedInstinct {
  instinct: InstinctRow;
  score: number;
}

/**
 * The `limit` instincts most relevant to `query`, best first. With a project, global
 * instincts ('' project) are included. Embeddings are used when an embedder is given.
 */
export async function rankInstincts(
  store: Store,
  query: string,
  limit: number,
  options: { embedder?: Embedder | null; project?: string } = {},
): Promise<RankedInstinct[]> {
  const res = await search(store, options.embedder ?? null, {
    query,
    limit: limit * 4,
    mode: 'hybrid',
    filter: { collections: ['instincts'] },
  });
  const out: RankedInstinct[] = [];
  for (const hit of res.results) {
    if (options.project !== undefined && hit.project !== '' && hit.project !== options.project) continue;
    const instinct = store.instincts.get(hit.id);
    if (instinct) out.push({ instinct, score: hit.score });
    if (out.length >= limit) break;
  }
  return out;
}

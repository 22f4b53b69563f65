/**
 * Memory retrieval (seed 004): the N most recent memories plus the K most related to the
 * situation by meaning, each scored by cosine similarity times a time decay (a half-life in
 * days), returned oldest first. Without an encoder it is the recent ones only.
 */
import type { EmbeddingProvider } from '../embed/provider.js';
import { cosine } from '../embed/vector-math.js';
import type { Memory } from './schemas.js';

export interface RecallOptions {
  recent: number;
  topK: number;
  halfLifeDays: number;
  /** How many older memories are searched by meaning (the encoder's cost grows with it). */
  pool: number;
  now: Date;
}

export const DEFAULT_RECALL = { recent: 10, topK: 10, halfLifeDays: 30, pool: 500 } as const;

const DAY_MS = 86_400_000;

export const decay = (m: Memory, now: Date, halfLifeDays: number): number =>
  0.5 ** (Math.max(0, now.getTime() - Date.parse(m.timestamp)) / DAY_MS / halfLifeDays);

export async function recall(
  memories: readonly Memory[],
  situation: string,
  encoder: EmbeddingProvider | null,
  o: RecallOptions,
): Promise<Memory[]> {
  const recent = memories.slice(-o.recent);
  const older = memories.slice(-(o.recent + o.pool), Math.max(0, memories.length - o.recent));
  if (!encoder || !older.length || o.topK <= 0) return [...recent];
  const [query, ...vectors] = await encoder.embed([situation, ...older.map((m) => `${m.situation}\n${m.description}`)]);
  const scored = older.map((m, i) => ({
    m,
    i,
    s: cosine(query as Float32Array, vectors[i] as Float32Array) * decay(m, o.now, o.halfLifeDays),
  }));
  const related = scored
    .sort((a, b) => b.s - a.s)
    .slice(0, o.topK)
    .sort((a, b) => a.i - b.i)
    .map((x) => x.m);
  return [...related, ...recent];
}

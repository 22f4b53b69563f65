/**
 * A deterministic feature-hashing embedder: word unigrams and character trigrams hashed
 * into a fixed number of dimensions, L2-normalised. No model, no I/O: what tests and
 * benchmarks use in place of a real sentence encoder. Similar wording gives similar
 * vectors; meaning does not.
 */
import { words } from '../text/words.js';
import type { EmbeddingProvider } from './provider.js';

function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function hashEmbedding(text: string, dims = 64): Float32Array {
  const v = new Float32Array(dims);
  const add = (feature: string, weight: number): void => {
    const h = fnv1a(feature);
    v[h % dims] = (v[h % dims] as number) + (h & 0x80000000 ? -weight : weight);
  };
  for (const t of words(text)) {
    add(`w:${t}`, 1);
    const padded = `^${t}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(`c:${padded.slice(i, i + 3)}`, 0.3);
  }
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < dims; i++) v[i] = (v[i] as number) / norm;
  return v;
}

/** The hashing embedder as a provider (fingerprint `hash:hash-<dims>:<dims>`). */
export function hashProvider(dims = 64): EmbeddingProvider {
  return {
    provider: 'hash',
    model: `hash-${dims}`,
    dims,
    batchSize: 256,
    embed: async (texts) => texts.map((t) => hashEmbedding(t, dims)),
  };
}

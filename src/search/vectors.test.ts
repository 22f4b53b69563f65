import { afterAll, describe, expect, it } from 'vitest';
import { l2normalize, dot } from '../embed/vector-math.js';
import { openStore } from '../store/store.js';
import { testStore } from '../test-support/store.js';
import { addDocuments } from './memory.js';
import { PREFILTER_MIN, VectorIndex, vectorWrite, writeFingerprint } from './vectors.js';

/** Deterministic pseudo-random numbers in [-0.5, 0.5) (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

describe('vector index', () => {
  const store = testStore();
  afterAll(() => store.cleanup());
  const dims = 256;
  const fingerprint = { provider: 'test', model: 'random', dims };
  const random = rng(7);
  const count = PREFILTER_MIN + 1000;
  const vectors = Array.from({ length: count }, () => l2normalize(Array.from({ length: dims }, random)));

  it('finds the exact nearest neighbours through the sign-code stages, with filters', () => {
    addDocuments(
      store,
      vectors.map((_, i) => ({ id: `d${i}`, text: `document ${i}`, collection: i % 2 ? 'notes' : 'memories' })),
    );
    store.transaction(() => {
      writeFingerprint(store.documents, fingerprint);
      store.documents.writeVectors(
        'test:random:256',
        vectors.map((vector, i) => vectorWrite(i + 1, vector)),
      );
    });
    const index = new VectorIndex(store.documents, fingerprint);
    expect(index.size).toBe(count);
    // Queries close to known documents (a paraphrase of them), as real queries are.
    for (const target of [5, 1234, count - 1]) {
      const query = l2normalize(Array.from(vectors[target] as Float32Array, (x) => x + 0.01 * random()));
      const exact = vectors
        .map((v, i) => ({ id: i + 1, score: dot(query, v) }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10);
      const found = index.search(query, 10);
      expect(found[0]?.id).toBe(target + 1);
      // Scores are exact cosines, best first; beyond the target, random vectors are all about
      // equally far, so only the score level (not the exact set) is comparable.
      for (const f of found) expect(f.score).toBeCloseTo(dot(query, vectors[f.id - 1] as Float32Array), 5);
      expect(found.map((f) => f.score)).toEqual([...found.map((f) => f.score)].sort((a, b) => b - a));
      expect(found[9]?.score).toBeGreaterThan((exact[9]?.score ?? 0) * 0.9);
      const facts = index.search(query, 5, { collections: ['notes'] });
      expect(facts.every((f) => f.id % 2 === 0)).toBe(true);
    }
    expect(index.search(vectors[0] as Float32Array, 5, { project: 'nobody' })).toEqual([]);
  });

  it('reloads after another writer changes the vectors', () => {
    const index = new VectorIndex(store.documents, fingerprint);
    const before = index.size;
    const other = openStore({ home: store.paths.home });
    try {
      expect(other.documents.delete('memories', ['d0'])).toBe(1);
    } finally {
      other.close();
    }
    expect(index.size).toBe(before - 1);
  });
});

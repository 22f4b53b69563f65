import { describe, expect, it } from 'vitest';
import { testStore } from '../test-support/store.js';
import { addDocuments } from './memory.js';
import { blendRerank, retrievalWeight } from './rerank.js';
import { search } from './search.js';

describe('rerank blending', () => {
  it('weighs retrieval 75% / 60% / 40% by position, with retrieval score 1 / position', () => {
    expect([1, 3, 4, 10, 11].map(retrievalWeight)).toEqual([0.75, 0.75, 0.6, 0.6, 0.4]);
    expect(blendRerank(1, 0)).toBeCloseTo(0.75, 12);
    expect(blendRerank(2, 1)).toBeCloseTo(0.75 * 0.5 + 0.25, 12);
    expect(blendRerank(5, 0.5)).toBeCloseTo(0.6 * 0.2 + 0.4 * 0.5, 12);
    expect(blendRerank(20, 2)).toBeCloseTo(0.4 * 0.05 + 0.6 * 1, 12);
    expect(blendRerank(20, Number.NaN)).toBeCloseTo(0.02, 12);
  });

  it('lets a reranker reorder the head of the results and explains its score', async () => {
    const store = testStore();
    try {
      addDocuments(store, [
        { id: 'a', text: 'deploy deploy deploy the service', collection: 'memories' },
        { id: 'b', text: 'deploy notes', collection: 'memories' },
        { id: 'c', text: 'how we deploy on fridays with a rollback plan', collection: 'memories' },
      ]);
      const plain = await search(store, null, { query: 'deploy' });
      const seen: string[][] = [];
      const reranked = await search(store, null, {
        query: 'deploy',
        rerank: async (_q, candidates) => {
          seen.push(candidates.map((c) => c.id));
          return candidates.map((c) => (c.id === plain.results[2]?.id ? 1 : 0));
        },
      });
      expect(seen[0]).toEqual(plain.results.map((r) => r.id));
      // Third place with a perfect rerank score: 0.75/3 + 0.25 = 0.5 beats second place's 0.75/2 = 0.375.
      expect(reranked.results.map((r) => r.id)).toEqual([plain.results[0]?.id, plain.results[2]?.id, plain.results[1]?.id]);
      expect(reranked.results[1]?.explain.rerank).toBe(1);
    } finally {
      store.cleanup();
    }
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/store.js';
import { testStore } from '../test-support/store.js';
import { bm25List, COMMON_TERM_MIN_DOCS, selectiveTerms } from './lexical.js';
import { addDocuments } from './memory.js';

describe('lexical lists', () => {
  const store = testStore();
  afterAll(() => store.cleanup());
  // Just under the threshold: "plenty" is still selective, "scarce" always is.
  const plenty = COMMON_TERM_MIN_DOCS - 5;
  addDocuments(
    store,
    Array.from({ length: COMMON_TERM_MIN_DOCS + 500 }, (_, i) => ({
      id: `d${i}`,
      text: `${i < plenty ? 'plenty' : 'other'} filler${i % 7} ${i % 100 === 0 ? 'scarce' : ''}`,
      collection: i % 2 ? 'notes' : 'memories',
    })),
  );

  it('keeps counted document frequencies only until the documents change, from this connection or another', () => {
    expect(selectiveTerms(store.documents, ['plenty', 'scarce'])).toEqual(['plenty', 'scarce']);
    addDocuments(
      store,
      Array.from({ length: 10 }, (_, i) => ({ id: `more${i}`, text: 'plenty more', collection: 'memories' })),
    );
    expect(selectiveTerms(store.documents, ['plenty', 'scarce'])).toEqual(['scarce']);

    const other = openStore({ home: store.paths.home });
    try {
      other.documents.delete(
        'memories',
        Array.from({ length: 10 }, (_, i) => `more${i}`),
      );
    } finally {
      other.close();
    }
    expect(selectiveTerms(store.documents, ['plenty', 'scarce'])).toEqual(['plenty', 'scarce']);
  });

  it('ranks the same with and without a filter that every document passes', () => {
    const all = bm25List(store.documents, 'scarce filler3', { filter: {}, limit: 50 });
    const filtered = bm25List(store.documents, 'scarce filler3', { filter: { collections: ['notes', 'memories'] }, limit: 50 });
    expect(all.ids.length).toBe(50);
    expect(filtered).toEqual(all);
    const facts = bm25List(store.documents, 'scarce filler3', { filter: { collections: ['notes'] }, limit: 50 });
    // Row ids start at 1, so the odd-numbered inputs (facts) have even row ids.
    expect(facts.ids.length).toBeGreaterThan(0);
    expect(facts.ids.every((id) => id % 2 === 0)).toBe(true);
  });
});

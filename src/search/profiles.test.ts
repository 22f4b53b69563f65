import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addDocuments } from './memory.js';
import { type CollectionProfile, scopedFilter } from './profiles.js';
import { search } from './search.js';
import { PLAIN_RRF } from './tuning.js';

let store: TestStore;
beforeEach(() => {
  store = testStore('2026-03-01T00:00:00.000Z');
  addDocuments(store, [
    { id: 'a', text: 'the deploy runs on fridays', collection: 'notes', confidence: 0.5 },
    { id: 'b', text: 'deploy checklist and rollback', collection: 'notes', confidence: 0.9 },
    { id: 'c', text: 'the deploy is blue-green', collection: 'memories', confidence: 0.5 },
  ]);
});
afterEach(() => store.cleanup());

/** A profile whose modifiers halve every hit of its collection, whatever its confidence. */
const halving: CollectionProfile = {
  modifiers: (rows) => new Map(rows.map((r) => [r.id, { superseded: 0.5, factor: 0.5 }])),
};

describe('collection profiles', () => {
  it("score their collection's hits in place of the record's own modifiers, and leave the others alone", async () => {
    const res = await search(store, null, { query: 'deploy', profiles: { notes: halving } });
    const byId = new Map(res.results.map((r) => [r.id, r]));
    expect(byId.get('a')?.explain.modifiers).toEqual({ superseded: 0.5, factor: 0.5 });
    expect(byId.get('b')?.explain.modifiers).toEqual({ superseded: 0.5, factor: 0.5 });
    expect(byId.get('c')?.explain.modifiers).toEqual({ confidence: 0.5, factor: 0.5 });
  });

  it('tune the stages and pick the words when a query searches their collection alone', async () => {
    const words: CollectionProfile = { tuning: { ...PLAIN_RRF, weights: { ...PLAIN_RRF.weights, bm25: 0.3 } }, terms: () => ['rollback'] };
    const alone = await search(store, null, {
      query: 'deploy "fridays"',
      filter: { collections: ['notes'] },
      profiles: { notes: words },
      tuning: { relativeScores: false },
    });
    // The profile's words, quoted (the query's own syntax is not run), fused at its weight without a rank bonus, raw.
    expect(alone.results.map((r) => r.id)).toEqual(['b']);
    expect(alone.results[0]?.score).toBeCloseTo(((2 * 0.3) / 61) * 0.9, 10);
    expect(alone.results[0]?.explain.bonus).toBe(0);
    // Among several collections the defaults hold: the query's own words, relative scores.
    const mixed = await search(store, null, { query: 'deploy', profiles: { notes: words } });
    expect(mixed.results.map((r) => r.id).sort()).toEqual(['a', 'b', 'c']);
  });

  it('read the depth asked for, whatever the limit', async () => {
    const res = await search(store, null, { query: 'deploy', depth: 1, limit: 10 });
    expect(res.results).toHaveLength(1);
  });
});

describe('collection scopes', () => {
  const scoped: CollectionProfile = { scope: { facts: { projects: ['p1'] } } };

  it('narrow the filter when their collection is searched, alone or among others', () => {
    const facts = { projects: ['p1'] };
    expect(scopedFilter({ facts: scoped }, {})).toEqual({ facts });
    expect(scopedFilter({ facts: scoped }, { collections: ['facts', 'notes'], project: 'x' })).toEqual({
      collections: ['facts', 'notes'],
      project: 'x',
      facts,
    });
  });

  it('leave the filter alone when their collection is not searched or they have no scope', () => {
    expect(scopedFilter({ facts: scoped }, { collections: ['notes'] })).toEqual({ collections: ['notes'] });
    expect(scopedFilter({ notes: halving }, {})).toEqual({});
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addDocuments } from './memory.js';
import { hashProvider } from '../embed/hash.js';
import { Embedder } from './embeddings.js';
import { type CollectionProfile, denseFactors, scopedFilter, withSessionDense } from './profiles.js';
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

describe('the dense factor of a collection', () => {
  it('weighs the dense list for its documents only, and takes the rank bonus away from them', async () => {
    const embedder = new Embedder(store, hashProvider(64));
    await embedder.syncAll();
    const ask = (profiles: Record<string, CollectionProfile>) =>
      search(store, embedder, { query: 'blue-green deploy', mode: 'hybrid', profiles, tuning: { relativeScores: false } });
    const full = await ask({});
    const halved = await ask({ memories: { dense: 0.5 } });
    const vector = (r: (typeof full.results)[number]) => r.explain.lists.find((l) => l.list === 'vector');
    const before = full.results.find((r) => r.id === 'c');
    const after = halved.results.find((r) => r.id === 'c');
    // c is the nearest in meaning: ranked the same in the dense list, it counts half and loses its bonus.
    expect(vector(before!)?.rank).toBe(1);
    expect(vector(after!)?.rank).toBe(1);
    expect(before!.explain.bonus).toBeGreaterThan(0);
    expect(after!.score).toBeLessThan(before!.score);
    // The notes' scores do not move.
    for (const id of ['a', 'b'])
      expect(halved.results.find((r) => r.id === id)?.score).toBeCloseTo(full.results.find((r) => r.id === id)?.score ?? -1, 12);
  });

  it('is given to the collections learned from agent sessions only for the bundled encoder', () => {
    const facts: CollectionProfile = { scope: { facts: { projects: ['p1'] } } };
    const bundled = withSessionDense({ facts, notes: halving }, 'use-lite');
    expect(bundled.turns?.dense).toBe(0.5);
    expect(bundled.instincts?.dense).toBe(0.5);
    expect(bundled.facts).toEqual({ ...facts, dense: 0.5 });
    expect(bundled.notes).toBe(halving);
    expect(bundled.memories).toBeUndefined();
    expect(withSessionDense({ facts }, 'openai')).toEqual({ facts });
    expect(withSessionDense({ facts }, undefined)).toEqual({ facts });
  });

  it('is read per hit, and not at all when no collection has one', () => {
    const hits = [{ collection: 'turns' }, { collection: 'memories' }, {}];
    expect(denseFactors({ turns: { dense: 0.5 } }, hits)).toEqual([0.5, 1, 1]);
    expect(denseFactors({ facts: {} }, hits)).toBeUndefined();
  });
});

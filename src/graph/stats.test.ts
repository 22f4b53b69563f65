import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact } from './add-fact.js';
import { hashProvider } from '../embed/hash.js';
import { Embedder } from '../search/embeddings.js';
import { factDocuments } from './embeddings.js';
import { reconsolidateFact } from './revise.js';
import { graphStats } from './stats.js';

let store: TestStore;
beforeEach(() => (store = testStore('2026-01-01T00:00:00.000Z')));
afterEach(() => store.cleanup());

describe('memory quality metrics', () => {
  it('are zero and not judged on an empty graph: a young memory is not an unhealthy one', () => {
    const s = graphStats(store);
    expect(s).toMatchObject({
      entities: 0,
      dedup_ratio: 0,
      embedding_coverage: 0,
      average_activation: null,
      retrieval_hit_rate: 0,
      dream_efficiency: 0,
      average_confidence: null,
    });
    expect(Object.values(s.healthy)).toEqual([null, null, null, null, null, null, null]);
  });

  it('computes each metric from its formula', async () => {
    const add = (t: string, d: string, c = 0.8) =>
      addFact(store, { source: { name: 'app' }, target: { name: t }, relation: 'uses', description: d, confidence: c }).fact.id;
    const a = add('postgres', 'app stores data in postgres 15', 0.6);
    const b = add('redis', 'app caches sessions in redis');
    const c = add('vitest', 'app runs its tests with vitest', 1);
    add('postgres', 'app stores data in postgres 16', 0.8); // supersedes a (version changed)
    reconsolidateFact(store, b, { description: 'app caches sessions and rate limits in redis' });
    store.graph.accesses.record([b], store.clock.now().toISOString(), 'retrieval');
    store.graph.episodes.record({ sourceRef: 's1', timestamp: store.clock.now().toISOString(), entityIds: [], factIds: [a] });
    const docs = [...factDocuments(store, [b, c]).values()];
    const entities = store.graph.entities.list({ limit: 2 }).map((e) => String(e.id));
    docs.push(...store.documents.rowIds('entities', entities).values());
    await new Embedder(store, hashProvider(16)).embedDocuments(docs);

    const s = graphStats(store);
    expect(s.facts).toMatchObject({ total: 4, current: 3, superseded: 1, decayed: 0 });
    expect(s.dedup_ratio).toBe(0.25);
    // 2 facts + 2 entities embedded out of 3 current facts + 4 entities
    expect(s.embedding_coverage).toBe(0.571);
    expect(s.average_activation).toBeCloseTo(Math.log(2) / 3, 3); // all accesses today; redis twice (created, retrieved)
    expect(s.reconsolidation_rate).toBe(0.333);
    expect(s.retrieval_hit_rate).toBe(0.333);
    expect(s.dream_efficiency).toBe(0);
    expect(s.memory_types).toEqual({ episodic: 0, semantic: 3, procedural: 0, unclassified: 0 });
    expect(s.average_confidence).toBeCloseTo((0.8 + 1 + 0.8) / 3, 3);
    expect(s.healthy).toMatchObject({
      dedup_ratio: true,
      embedding_coverage: false,
      average_activation: true,
      reconsolidation_rate: false,
      retrieval_hit_rate: false,
      // An episode recorded, none consolidated: no dream cycle has run.
      dream_efficiency: null,
      average_confidence: true,
    });
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact } from './add-fact.js';
import { runDreamCycle } from './dream.js';
import { MAX_NEW_FACTS_PER_CLUSTER, clusterEpisodes, distilledConfidence, planCluster, reinforcementBoost } from './dream-plan.js';
import { queryFacts } from './temporal.js';

describe('dream-cycle rules', () => {
  it('boosts by 0.05 x (count - 2) from 3 occurrences', () => {
    expect(reinforcementBoost(2)).toBe(0);
    expect(reinforcementBoost(3)).toBeCloseTo(0.05);
    expect(reinforcementBoost(5)).toBeCloseTo(0.15);
  });

  it('distils at min(0.9, 0.6 + 0.1 x (count - 2))', () => {
    expect(distilledConfidence(3)).toBeCloseTo(0.7);
    expect(distilledConfidence(4)).toBeCloseTo(0.8);
    expect(distilledConfidence(5)).toBeCloseTo(0.9);
    expect(distilledConfidence(9)).toBe(0.9);
  });

  it('clusters episodes sharing 2+ entities, transitively, and not 1', () => {
    const clusters = clusterEpisodes([
      { id: 1, entities: [1, 2, 3], facts: [] },
      { id: 2, entities: [2, 3], facts: [] },
      { id: 3, entities: [3, 9, 2], facts: [] },
      { id: 4, entities: [1, 7], facts: [] },
      { id: 5, entities: [7, 8, 1], facts: [] },
    ]);
    expect(clusters.map((c) => c.map((e) => e.id))).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('plans nothing for clusters under 3 episodes, caps distillation at 3 facts', () => {
    expect(
      planCluster([
        { id: 1, entities: [1, 2], facts: [] },
        { id: 2, entities: [1, 2], facts: [] },
      ]),
    ).toBeUndefined();
    const eps = [1, 2, 3, 4].map((id) => ({
      id,
      entities: [10, 11, 12, 13, 14, 15, id === 4 ? 16 : 17],
      facts: id < 4 ? [100, 101] : [100],
    }));
    const plan = planCluster(eps, (e) => (e === 10 ? 5 : 0));
    expect(plan?.hub).toBe(10);
    expect(plan?.distill).toHaveLength(MAX_NEW_FACTS_PER_CLUSTER);
    expect(plan?.distill.map((d) => d.entityId)).toEqual([11, 12, 13]);
    expect(plan?.distill[0]).toMatchObject({ count: 4, confidence: 0.8 });
    expect(plan?.reinforce).toEqual([
      { factId: 100, count: 4, boost: expect.closeTo(0.1) },
      { factId: 101, count: 3, boost: expect.closeTo(0.05) },
    ]);
  });
});

describe('the dream cycle on a built scenario', () => {
  let store: TestStore;
  beforeEach(() => (store = testStore('2026-02-20T10:00:00.000Z')));
  afterEach(() => store.cleanup());

  const session = (n: number, extra: string[]) => {
    const ids: number[] = [];
    const entities = new Set<number>();
    for (const target of ['react-force-graph', ...extra]) {
      const r = addFact(store, {
        source: { name: 'user', type: 'person' },
        target: { name: target, type: 'library' },
        relation: 'uses',
        description: `the user uses ${target} for the neural page`,
      });
      ids.push(r.fact.id);
      entities.add(r.fact.source_id).add(r.fact.target_id);
    }
    store.graph.episodes.record({ sourceRef: `s${n}`, timestamp: store.clock.now().toISOString(), entityIds: [...entities], factIds: ids });
    store.advanceDays(1);
  };

  it('needs 5 unconsolidated episodes in the last 7 days', () => {
    for (let i = 0; i < 4; i++) session(i, []);
    const r = runDreamCycle(store);
    expect(r).toMatchObject({ ran: false, episodes: 4 });
    expect(r.reason).toMatch(/needs 5/);
  });

  it('reinforces recurring facts, distils a semantic fact, marks the episodes consolidated', () => {
    session(1, ['d3-force']);
    session(2, ['d3-force']);
    session(3, ['d3-force']);
    session(4, ['recharts']);
    session(5, ['vite']);
    const before = queryFacts(store).find((f) => f.target === 'react-force-graph');
    expect(before?.confidence).toBe(0.7);

    const r = runDreamCycle(store);
    expect(r).toMatchObject({ ran: true, episodes: 5, clusters: 1, consolidated: 5 });
    // react-force-graph's fact was asserted in all 5 episodes: +0.05 x 3
    const after = store.graph.facts.get(before?.id ?? -1);
    expect(after?.confidence).toBeCloseTo(0.85);
    expect(after?.history).toHaveLength(1);
    // hub = user (in every episode); react-force-graph (5) and d3-force (3) recur
    expect(r.distilled.map((d) => [d.source, d.target, d.count, d.confidence])).toEqual([
      ['user', 'react-force-graph', 5, 0.9],
      ['user', 'd3-force', 3, expect.closeTo(0.7)],
    ]);
    const distilled = store.graph.facts.get(r.distilled[0]?.fact ?? -1);
    expect(distilled).toMatchObject({ memory_type: 'semantic', origin: 'dream', relation: 'uses' });
    expect(distilled?.description).toBe('user consistently uses react-force-graph, across sessions');
    expect(distilled?.metadata.count).toBe(5);
    expect(distilled?.metadata.context).toBe('Distilled from 5 episodes via dream cycle');
    expect(store.graph.episodes.get('s1')?.consolidated_at).toBe(store.clock.now().toISOString());

    // consolidated episodes are not replayed again
    expect(runDreamCycle(store)).toMatchObject({ ran: false, episodes: 0 });
  });

  it('replays episodes up to exactly 7 days old, not older', () => {
    for (let i = 0; i < 5; i++) session(i, ['d3-force']);
    // the first episode is 5 days old now (sessions advance a day each): 2 more days puts it at exactly 7
    store.advanceDays(2);
    expect(runDreamCycle(store)).toMatchObject({ ran: true, episodes: 5 });
  });

  it('ignores episodes older than 7 days', () => {
    for (let i = 0; i < 5; i++) session(i, ['d3-force']);
    store.advanceDays(2.001);
    expect(runDreamCycle(store)).toMatchObject({ ran: false, episodes: 4 });
    store.advanceDays(8);
    expect(runDreamCycle(store)).toMatchObject({ ran: false, episodes: 0 });
  });
});

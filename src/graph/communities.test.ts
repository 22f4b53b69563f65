import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact } from './add-fact.js';
import { detectCommunities, labelPropagation } from './communities.js';

const groups = (labels: Map<number, number>): number[][] => {
  const by = new Map<number, number[]>();
  for (const [n, l] of labels) by.set(l, [...(by.get(l) ?? []), n]);
  return [...by.values()].map((g) => g.sort((a, b) => a - b)).sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
};

describe('label propagation', () => {
  it('keeps two cliques joined by one bridge apart', () => {
    const k4 = (a: number): [number, number][] => [
      [a, a + 1],
      [a, a + 2],
      [a, a + 3],
      [a + 1, a + 2],
      [a + 1, a + 3],
      [a + 2, a + 3],
    ];
    const labels = labelPropagation([1, 2, 3, 4, 5, 6, 7, 8], [...k4(1), ...k4(5), [4, 5]]);
    expect(groups(labels)).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
  });

  it('separates two triangles joined by a bridge and two components', () => {
    const labels = labelPropagation(
      [1, 2, 3, 4, 5, 6, 10, 11],
      [
        [1, 2],
        [2, 3],
        [1, 3],
        [3, 4],
        [4, 5],
        [5, 6],
        [4, 6],
        [10, 11],
      ],
    );
    expect(groups(labels)).toEqual([
      [1, 2, 3],
      [4, 5, 6],
      [10, 11],
    ]);
  });

  it('gathers a star around its hub and leaves isolated nodes alone', () => {
    const labels = labelPropagation(
      [1, 2, 3, 4, 9],
      [
        [1, 2],
        [1, 3],
        [1, 4],
      ],
    );
    expect(groups(labels)).toEqual([[1, 2, 3, 4], [9]]);
    expect(labels.get(2)).toBe(1);
  });

  it('stops after the given iterations', () => {
    const labels = labelPropagation(
      [1, 2, 3],
      [
        [1, 2],
        [2, 3],
      ],
      0,
    );
    expect(groups(labels)).toEqual([[1], [2], [3]]);
  });
});

describe('detectCommunities', () => {
  let store: TestStore;
  beforeEach(() => (store = testStore()));
  afterEach(() => store.cleanup());

  it('names communities after their hub and lists their internal facts', () => {
    const link = (a: string, b: string) =>
      addFact(store, { source: { name: a }, target: { name: b }, relation: 'related_to', description: `${a} relates to ${b}` }).fact.id;
    const ids = [
      link('graph', 'd3'),
      link('graph', 'force'),
      link('graph', 'canvas'),
      link('d3', 'force'),
      link('d3', 'canvas'),
      link('graph', 'webgl'),
      link('webgl', 'canvas'),
    ];
    link('auth', 'jwt');
    link('auth', 'session store');
    link('auth', 'cookies');
    link('canvas', 'auth'); // a bridge
    const communities = detectCommunities(store);
    expect(communities.map((c) => c.name)).toEqual(['graph', 'auth']);
    const graph = communities.find((c) => c.name === 'graph');
    expect(graph?.entities.sort()).toEqual(['canvas', 'd3', 'force', 'graph', 'webgl']);
    expect(graph?.facts.sort()).toEqual([...ids].sort());
    expect(graph?.summary).toMatch(/^Community centered on graph with 5 entities/);
    expect(store.graph.communities.list().map((c) => c.name)).toEqual(['graph', 'auth']);
    // recomputing replaces, never accumulates
    detectCommunities(store);
    expect(store.graph.communities.list()).toHaveLength(2);
  });
});

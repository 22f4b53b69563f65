import { describe, expect, it } from 'vitest';
import { type ThreadPosition, rankByScore, spreadToNeighbours, threadBoost } from './context-expansion.js';

const positions = new Map<number, ThreadPosition>([
  [1, { id: 1, thread: 't', seq: 1 }],
  [2, { id: 2, thread: 't', seq: 2 }],
  [3, { id: 3, thread: 't', seq: 3 }],
  [4, { id: 4, thread: 'u', seq: 1 }],
  [5, { id: 5, thread: undefined, seq: null }],
]);
const neighboursOf = (p: ThreadPosition, radius: number) =>
  [...positions.values()].filter((q) => q.thread === p.thread && q.seq !== null && p.seq !== null && Math.abs(q.seq - p.seq) <= radius);

describe('neighbour spreading', () => {
  it('passes weight x score / distance to neighbours of the top seeds', () => {
    const scores = new Map([
      [2, 1.0],
      [4, 0.5],
    ]);
    const out = spreadToNeighbours(scores, [2, 4], positions, neighboursOf, { seeds: 2, weight: 0.5, radius: 1 });
    // 1 and 3 sit next to 2: each gets 0.5 x 1.0 / 1; 4 has no neighbour in thread u.
    expect(Object.fromEntries(out)).toEqual({ 1: 0.5, 2: 1.0, 3: 0.5, 4: 0.5 });
  });

  it('gives a filler neighbour only its share of substance', () => {
    const scores = new Map([[2, 1.0]]);
    const filler = (id: number) => (id === 1 ? 0.25 : 1);
    const out = spreadToNeighbours(scores, [2], positions, neighboursOf, { seeds: 1, weight: 0.5, radius: 1 }, filler);
    expect(Object.fromEntries(out)).toEqual({ 1: 0.125, 2: 1.0, 3: 0.5 });
  });

  it('keeps the largest gift and adds it to an existing score', () => {
    const scores = new Map([
      [1, 1.0],
      [3, 0.8],
      [2, 0.1],
    ]);
    const out = spreadToNeighbours(scores, [1, 3, 2], positions, neighboursOf, { seeds: 2, weight: 0.5, radius: 2 });
    // 2 receives max(0.5 x 1.0 / 1, 0.5 x 0.8 / 1) = 0.5; 3 receives 0.5 x 1.0 / 2 = 0.25; 1 receives 0.5 x 0.8 / 2 = 0.2
    expect(out.get(2)).toBeCloseTo(0.6, 12);
    expect(out.get(3)).toBeCloseTo(1.05, 12);
    expect(out.get(1)).toBeCloseTo(1.2, 12);
  });

  it('leaves documents outside threads alone', () => {
    const out = spreadToNeighbours(new Map([[5, 1]]), [5], positions, neighboursOf, { seeds: 5, weight: 1, radius: 1 });
    expect(Object.fromEntries(out)).toEqual({ 5: 1 });
  });
});

describe('thread evidence', () => {
  it('adds weight x thread strength / strongest thread', () => {
    const scores = new Map([
      [1, 0.6],
      [2, 0.4],
      [4, 0.5],
    ]);
    const out = threadBoost(scores, [1, 4, 2], positions, { depth: 3, weight: 0.2 });
    // thread t = 1.0 (strongest), u = 0.5
    expect(out.get(1)).toBeCloseTo(0.8, 12);
    expect(out.get(2)).toBeCloseTo(0.6, 12);
    expect(out.get(4)).toBeCloseTo(0.6, 12);
  });

  it('ranks by score, ties by id', () => {
    expect(
      rankByScore(
        new Map([
          [3, 1],
          [1, 1],
          [2, 2],
        ]),
      ),
    ).toEqual([2, 1, 3]);
  });
});

import { describe, expect, it } from 'vitest';
import { fuseRrf, isStrongBm25, normalizeBm25, rankBonus, rrfTerm } from './fusion.js';

describe('reciprocal rank fusion', () => {
  it('computes weight / (60 + rank)', () => {
    expect(rrfTerm(1)).toBeCloseTo(1 / 61, 12);
    expect(rrfTerm(3, 2)).toBeCloseTo(2 / 63, 12);
    expect(rrfTerm(1, 1, 10)).toBeCloseTo(1 / 11, 12);
  });

  it('gives the qmd bonus: +0.05 at rank 1, +0.02 at ranks 2-3, nothing below', () => {
    expect(rankBonus(1)).toBe(0.05);
    expect(rankBonus(2)).toBe(0.02);
    expect(rankBonus(3)).toBe(0.02);
    expect(rankBonus(4)).toBe(0);
    expect(rankBonus(undefined)).toBe(0);
  });

  it('fuses two original lists at 2x weight with bonuses, matching the hand computation', () => {
    const fused = fuseRrf([
      { name: 'bm25', ids: [10, 20, 30], weight: 2, original: true },
      { name: 'vector', ids: [20, 40], weight: 2, original: true },
    ]);
    // 20: 2/62 + 2/61 + 0.05 (rank 1 in vector) = 0.032258 + 0.032787 + 0.05 = 0.115045
    // 10: 2/61 + 0.05 = 0.082787;  40: 2/62 + 0.02 = 0.052258;  30: 2/63 + 0.02 = 0.051746
    expect(fused.map((f) => f.id)).toEqual([20, 10, 40, 30]);
    expect(fused[0]?.score).toBeCloseTo(0.115045, 5);
    expect(fused[1]?.score).toBeCloseTo(0.082787, 5);
    expect(fused[2]?.score).toBeCloseTo(0.052258, 5);
    expect(fused[3]?.score).toBeCloseTo(0.051746, 5);
    expect(fused[0]?.contributions.map((c) => [c.list, c.rank])).toEqual([
      ['bm25', 2],
      ['vector', 1],
    ]);
  });

  it('gives no bonus for lists that are not the original query, and none when disabled', () => {
    const feedbackOnly = fuseRrf([{ name: 'feedback', ids: [1], weight: 1, original: false }]);
    expect(feedbackOnly[0]?.score).toBeCloseTo(1 / 61, 12);
    const noBonus = fuseRrf([{ name: 'bm25', ids: [1], weight: 1, original: true }], { bonus: false });
    expect(noBonus[0]?.bonus).toBe(0);
  });

  it("scales a document's contribution by its factor, and earns no bonus where the factor is below 1", () => {
    const fused = fuseRrf([{ name: 'vector', ids: [7, 8, 9], weight: 2, original: true, factors: [0.5, 1, 0.5] }]);
    const by = new Map(fused.map((f) => [f.id, f]));
    // 7: 0.5 x 2/61, no bonus; 8: 2/62 + 0.02; 9: 0.5 x 2/63.
    expect(by.get(7)?.score).toBeCloseTo(1 / 61, 12);
    expect(by.get(7)?.bonus).toBe(0);
    expect(by.get(8)?.score).toBeCloseTo(2 / 62 + 0.02, 12);
    expect(by.get(9)?.contributions[0]?.contribution).toBeCloseTo(1 / 63, 12);
    expect(fused.map((f) => f.id)).toEqual([8, 7, 9]);
  });

  it('breaks ties by the smaller id and handles no lists', () => {
    expect(fuseRrf([])).toEqual([]);
    const tied = fuseRrf([
      { name: 'a', ids: [5], weight: 1, original: false },
      { name: 'b', ids: [3], weight: 1, original: false },
    ]);
    expect(tied.map((f) => f.id)).toEqual([3, 5]);
  });
});

describe('BM25 normalisation and the strong-signal shortcut', () => {
  it('maps |x| / (1 + |x|)', () => {
    expect(normalizeBm25(0)).toBe(0);
    expect(normalizeBm25(-1)).toBe(0.5);
    expect(normalizeBm25(9)).toBeCloseTo(0.9, 12);
    expect(normalizeBm25(-10)).toBeCloseTo(10 / 11, 12);
  });

  it('fires at >= 0.85 with a lead of >= 0.15 only', () => {
    expect(isStrongBm25([0.9, 0.7])).toBe(true);
    expect(isStrongBm25([0.85, 0.7])).toBe(true);
    expect(isStrongBm25([0.9])).toBe(true);
    expect(isStrongBm25([0.84, 0.1])).toBe(false);
    expect(isStrongBm25([0.9, 0.8])).toBe(false);
    expect(isStrongBm25([])).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { cleanEvidence, parseSessionDate } from './locomo-data.js';
import { hitAt, quality, recallAt, reciprocalRank } from './metrics.js';

describe('retrieval metrics', () => {
  it('computes recall@k as the share of gold ids in the top k', () => {
    expect(recallAt(['a', 'b', 'c'], ['b', 'x'], 2)).toBe(0.5);
    expect(recallAt(['a', 'b', 'c'], ['b', 'c'], 1)).toBe(0);
    expect(recallAt([], ['a'], 10)).toBe(0);
    expect(recallAt(['a'], [], 10)).toBe(0);
  });

  it('computes hit@k and the reciprocal rank of the first gold id', () => {
    expect(hitAt(['a', 'b'], ['b'], 1)).toBe(0);
    expect(hitAt(['a', 'b'], ['b'], 2)).toBe(1);
    expect(reciprocalRank(['a', 'b', 'c'], ['c', 'b'])).toBe(0.5);
    expect(reciprocalRank(['a'], ['z'])).toBe(0);
  });

  it('averages over questions', () => {
    const q = quality([
      { retrieved: ['a', 'b'], gold: ['a'] },
      { retrieved: ['x', 'b'], gold: ['b', 'c'] },
    ]);
    expect(q).toMatchObject({ r1: 0.5, r5: 0.75, hit10: 1, mrr: 0.75, n: 2 });
  });
});

describe('LoCoMo format', () => {
  it('parses session date-times', () => {
    expect(parseSessionDate('1:56 pm on 8 May, 2023')).toBe('2023-05-08T13:56:00.000Z');
    expect(parseSessionDate('12:04 am on 1 January, 2024')).toBe('2024-01-01T00:04:00.000Z');
    expect(parseSessionDate('sometime')).toBeUndefined();
  });

  it('cleans evidence ids as the README says', () => {
    expect(cleanEvidence(['D8:6; D9:17', 'D', 'D:11:26', 'D30:05', 'D1:3,D1:4'])).toEqual(['D8:6', 'D9:17', 'D30:5', 'D1:3', 'D1:4']);
  });
});

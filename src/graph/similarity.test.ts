import { describe, expect, it } from 'vitest';
import { JACCARD_DUPLICATE, cosine, jaccard, textJaccard } from './similarity.js';

describe('Jaccard on words of 2+ characters', () => {
  it('computes |A ∩ B| / |A ∪ B|', () => {
    expect(jaccard(new Set(['a1', 'b2']), new Set(['b2', 'c3']))).toBeCloseTo(1 / 3);
    expect(jaccard(new Set(), new Set())).toBe(0);
    expect(textJaccard('uses zod', 'uses zod')).toBe(1);
  });

  it('calls a pair a duplicate strictly above 0.85', () => {
    // 6 of 7 words shared: 0.857 > 0.85
    const base = 'one two three four five six';
    expect(textJaccard(base, `${base} seven`)).toBeCloseTo(6 / 7);
    expect(textJaccard(base, `${base} seven`)).toBeGreaterThan(JACCARD_DUPLICATE);
    // 17 of 20 = 0.85 exactly: not above
    const many = Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ');
    expect(textJaccard(many, `${many} x1 x2 x3`)).toBeCloseTo(0.85);
    expect(textJaccard(many, `${many} x1 x2 x3`)).not.toBeGreaterThan(JACCARD_DUPLICATE);
  });
});

describe('cosine', () => {
  it('measures the angle and refuses vectors of different models', () => {
    expect(cosine(new Float32Array([1, 0]), new Float32Array([2, 0]))).toBeCloseTo(1);
    expect(cosine(new Float32Array([1, 0]), new Float32Array([0, 1]))).toBe(0);
    expect(cosine(new Float32Array([1, 0]), new Float32Array([1, 0, 0]))).toBe(0);
    expect(cosine(new Float32Array([0, 0]), new Float32Array([1, 0]))).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { l2normalize, signCode, cosine } from './vector-math.js';

describe('vector math', () => {
  it('normalises, compares and packs sign bits', () => {
    expect(Array.from(l2normalize([3, 4]))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Array.from(l2normalize([0, 0]))).toEqual([0, 0]);
    expect(cosine(new Float32Array([1, 0]), new Float32Array([0, 2]))).toBe(0);
    const code = signCode(new Float32Array([1, -1, 0.5, 0, ...Array.from({ length: 30 }, () => -1), 2]));
    expect(Array.from(code)).toEqual([0b101, 0b100]);
  });
});

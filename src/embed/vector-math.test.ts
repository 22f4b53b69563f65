import { describe, expect, it } from 'vitest';
import { bufferToVector, cosine, l2normalize, signCode, vectorToBuffer } from './vector-math.js';

describe('vector math', () => {
  it('normalises, compares and packs sign bits', () => {
    expect(Array.from(l2normalize([3, 4]))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Array.from(l2normalize([0, 0]))).toEqual([0, 0]);
    expect(cosine(new Float32Array([1, 0]), new Float32Array([0, 2]))).toBe(0);
    const code = signCode(new Float32Array([1, -1, 0.5, 0, ...Array.from({ length: 30 }, () => -1), 2]));
    expect(Array.from(code)).toEqual([0b101, 0b100]);
  });

  it('round-trips a vector through the bytes the store keeps, from any offset', () => {
    const v = new Float32Array([0.5, -1.25, 3]);
    const bytes = vectorToBuffer(v);
    const unaligned = new Uint8Array(bytes.byteLength + 1).subarray(1);
    unaligned.set(bytes);
    expect(Array.from(bufferToVector(unaligned))).toEqual([0.5, -1.25, 3]);
  });
});

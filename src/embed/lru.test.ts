import { describe, expect, it } from 'vitest';
import { LruCache } from './lru.js';
import { l2normalize, signCode, cosine } from './vector-math.js';

describe('LRU cache', () => {
  it('evicts the least recently used entry past capacity', () => {
    const lru = new LruCache<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now the most recent
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
    const none = new LruCache<string, number>(0);
    none.set('x', 1);
    expect(none.get('x')).toBeUndefined();
  });
});

describe('vector math', () => {
  it('normalises, compares and packs sign bits', () => {
    expect(Array.from(l2normalize([3, 4]))).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(Array.from(l2normalize([0, 0]))).toEqual([0, 0]);
    expect(cosine(new Float32Array([1, 0]), new Float32Array([0, 2]))).toBe(0);
    const code = signCode(new Float32Array([1, -1, 0.5, 0, ...Array.from({ length: 30 }, () => -1), 2]));
    expect(Array.from(code)).toEqual([0b101, 0b100]);
  });
});

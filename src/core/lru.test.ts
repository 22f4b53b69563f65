import { describe, expect, it } from 'vitest';
import { LruCache } from './lru.js';

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

import { describe, expect, it } from 'vitest';
import { testStore } from '../test-support/store.js';
import { rawDatabase } from './testing.js';

describe('meta values', () => {
  it('reads what was written, overwrites in place, and is undefined for a key never written', () => {
    const store = testStore();
    try {
      expect(store.meta.read('probe')).toBeUndefined();
      store.meta.write('probe', 'one');
      store.meta.write('probe', 'two');
      expect(store.meta.read('probe')).toBe('two');
      expect((rawDatabase(store).prepare("SELECT count(*) AS n FROM meta WHERE key = 'probe'").get() as { n: number }).n).toBe(1);
    } finally {
      store.cleanup();
    }
  });

  it('lists the keys under a prefix (its wildcards taken as written) and removes one', () => {
    const store = testStore();
    try {
      for (const key of ['a:1', 'a:2', 'a_:3', 'ab', 'b:1']) store.meta.write(key, key);
      expect(store.meta.prefixed('a:').map((r) => r.key)).toEqual(['a:1', 'a:2']);
      expect(store.meta.prefixed('a_').map((r) => r.key)).toEqual(['a_:3']);
      store.meta.remove('a:1');
      expect(store.meta.read('a:1')).toBeUndefined();
      expect(store.meta.prefixed('a:')).toEqual([{ key: 'a:2', value: 'a:2' }]);
    } finally {
      store.cleanup();
    }
  });
});

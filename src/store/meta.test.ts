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
});

import { describe, expect, it } from 'vitest';
import { testStore } from '../test-support/store.js';
import { readMeta, writeMeta } from './meta.js';

describe('meta values', () => {
  it('reads what was written, overwrites in place, and is undefined for a key never written', () => {
    const store = testStore();
    try {
      expect(readMeta(store.db, 'probe')).toBeUndefined();
      writeMeta(store.db, 'probe', 'one');
      writeMeta(store.db, 'probe', 'two');
      expect(readMeta(store.db, 'probe')).toBe('two');
      expect((store.db.prepare("SELECT count(*) AS n FROM meta WHERE key = 'probe'").get() as { n: number }).n).toBe(1);
    } finally {
      store.cleanup();
    }
  });
});

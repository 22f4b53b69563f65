import { afterEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { besideQuery } from './documents/records.js';
import { rawDatabase } from './testing.js';

let store: TestStore | undefined;
afterEach(() => store?.cleanup());

describe('documents in time order', () => {
  it('finds the memories before and after one by the index, without sorting the collection for each memory stored', () => {
    store = testStore('2026-02-01T00:00:00.000Z');
    const db = rawDatabase(store);
    for (const side of ['older', 'newer'] as const) {
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${besideQuery(side)}`)
        .all({ collection: 'memories', project: '', id: 1, at: '2026-01-01', limit: 200 })
        .map((row) => String((row as { detail: string }).detail))
        .join('\n');
      expect(plan, side).toContain('USING INDEX documents_time');
      expect(plan, side).not.toContain('TEMP B-TREE');
    }
  });
});

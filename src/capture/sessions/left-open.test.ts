import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testStore } from '../../test-support/store.js';
import { sessionFilePath } from './files.js';
import { summariseLeftOpen } from './left-open.js';

const SHOP = 'aaaaaaaaaaaaaaaa';

/** A tool call of `session`, as the spool brings it in when the stop hook could not write. */
const call = (session: string, ts: string, n: number) => ({
  source: 'claude-code',
  session_id: session,
  tool_use_id: `${session}-${n}`,
  ts,
  event: 'tool',
  project: SHOP,
  cwd: '/work/shop',
  tool: 'Edit',
  files: ['/work/shop/cart.ts'],
  outcome: 'ok' as const,
});

describe('sessions left without a summary', () => {
  it('get one from the learning run once idle an hour, under the name the project is known by', () => {
    const store = testStore('2026-03-01T12:00:00.000Z');
    try {
      store.sessions.save({
        ...{ id: 'known', source: 'claude-code', project: SHOP, project_name: 'shop', cwd: '/work/shop' },
        ...{ started_at: '2026-03-01T08:00:00.000Z', ended_at: '2026-03-01T08:30:00.000Z', tools_used: '[]', tool_counts: '{}' },
        ...{ files_touched: '[]', summary: 'Cart.', continues_from: null, transcript_path: null, file_name: null },
      });
      store.observations.insert(call('locked-out', '2026-03-01T10:00:00.000Z', 1));
      store.observations.insert(call('locked-out', '2026-03-01T10:20:00.000Z', 2));
      store.observations.insert(call('running', '2026-03-01T11:30:00.000Z', 1));
      const counted = store.identity.read().session_count;
      expect(summariseLeftOpen(store)).toBe(1);
      const row = store.sessions.get('locked-out');
      expect(row).toMatchObject({ project: SHOP, project_name: 'shop', ended_at: '2026-03-01T10:20:00.000Z' });
      expect(existsSync(sessionFilePath(store, row!))).toBe(true);
      expect(store.identity.read().session_count).toBe(counted + 1);
      // Still running (quiet for half an hour only), it waits for its own stop.
      expect(store.sessions.get('running')).toBeUndefined();
      expect(summariseLeftOpen(store)).toBe(0);
    } finally {
      store.cleanup();
    }
  });
});

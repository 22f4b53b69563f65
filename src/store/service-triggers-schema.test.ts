import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { openDatabase } from './db.js';
import { MIGRATIONS } from './schema.js';
import { withHomeStore } from '../test-support/store.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.cleanup());

const T0 = '2026-01-01T00:00:00.000Z';
const LISTED = 'when the work in cli needs what linear-server holds (get_issue, create_issue, crea…)';

/** A home at schema 17 with a service rule, the same rule edited by its user, and another miner's rule. */
function oldHome(): string {
  const db = openDatabase(join(dir.path, 'homunculus.db'), { migrations: MIGRATIONS.slice(0, 17) });
  const add = db.prepare(`INSERT INTO instincts (key, category, trigger, action, confidence, first_seen, last_seen, metadata)
    VALUES (?, 'preference', ?, 'Use the tools.', 0.5, ?, ?, ?)`);
  add.run('pref:cli/service=linear-server', LISTED, T0, T0, '{"miner":"service"}');
  add.run('pref:web/service=linear-server', LISTED.replace('cli', 'web'), T0, T0, '{"miner":"service"}');
  add.run('pref:cli/recipe=x', 'when running x (a, b)', T0, T0, '{"miner":"recipe"}');
  db.prepare(`INSERT INTO instinct_events (instinct_id, ts, kind, source) VALUES (2, ?, 'edit', 'cli')`).run(T0);
  // A forgotten instinct's edit keeps no row id: it must not stop the others.
  db.prepare(`INSERT INTO instinct_events (instinct_id, ts, kind, source) VALUES (NULL, ?, 'edit', 'cli')`).run(T0);
  db.close();
  return dir.path;
}

describe('service rules naming their tools as code (migration 18)', () => {
  it("rewrites an unedited service rule's tool list as code and leaves every other trigger as it was", () => {
    withHomeStore(oldHome(), T0, (store) => {
      expect(store.health().schemaVersion).toBe(MIGRATIONS.length);
      expect(store.instincts.get('pref:cli/service=linear-server')?.trigger).toBe(
        'when the work in cli needs what linear-server holds (`get_issue`, `create_issue`, `crea…`)',
      );
      expect(store.instincts.get('pref:web/service=linear-server')?.trigger).toBe(LISTED.replace('cli', 'web'));
      expect(store.instincts.get('pref:cli/recipe=x')?.trigger).toBe('when running x (a, b)');
      // The search index follows the new text.
      expect(store.instincts.search('create_issue').rows.map((r) => r.key)).toContain('pref:cli/service=linear-server');
    });
  });
});

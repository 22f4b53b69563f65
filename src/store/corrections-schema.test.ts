import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { forgetInstinct } from '../learn/corrections.js';
import { aliasPattern } from '../learn/instincts.js';
import { tempDir } from '../test-support/cli.js';
import { openDatabase } from './db.js';
import { schemaVersion } from './migrations.js';
import { MIGRATIONS } from './schema.js';
import { openStore } from './store.js';
import { rawDatabase } from './testing.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.cleanup());

const T0 = '2026-01-01T00:00:00.000Z';
const KINDS = ['create', 'reinforce', 'decay', 'feedback', 'contradiction', 'import', 'alias', 'promote', 'raise'];

/** A home whose database has the schema before corrections (version 8), with instincts, a conviction and every old kind of event. */
function oldHome(): string {
  const db = openDatabase(join(dir.path, 'homunculus.db'), { migrations: MIGRATIONS.slice(0, 8) });
  expect(schemaVersion(db)).toBe(8);
  const instinct = db.prepare(`INSERT INTO instincts (key, category, trigger, action, confidence, evidence, first_seen, last_seen, project)
    VALUES (?, 'preference', ?, ?, 0.6, ?, ?, ?, 'p1')`);
  instinct.run('pref:pkg=pnpm', 'when installing', 'Use pnpm.', 9, T0, T0);
  instinct.run('pref:pkg=pnpm-install', 'when installing packages', 'Run pnpm install.', 2, T0, T0);
  db.prepare(`INSERT INTO convictions (instinct_id, title, rule, created_at) VALUES (1, 'pkg', 'Use pnpm.', ?)`).run(T0);
  const event = db.prepare(`INSERT INTO instinct_events (instinct_id, ts, kind, delta_evidence, delta_confidence, source, project, detail)
    VALUES (?, ?, ?, ?, ?, ?, 'p1', ?)`);
  KINDS.forEach((kind, i) => event.run(1, `2026-01-0${(i % 9) + 1}T00:00:00.000Z`, kind, i, i / 100, `src-${i}`, `detail ${i}`));
  event.run(2, T0, 'create', 2, 0.5, 'observer', '');
  db.close();
  return dir.path;
}

const allEvents = (store: ReturnType<typeof openStore>) =>
  rawDatabase(store)
    .prepare('SELECT id, instinct_id, ts, kind, delta_evidence, delta_confidence, source, project, detail FROM instinct_events ORDER BY id')
    .all();

describe('the corrections migration (9)', () => {
  it('keeps every event row of an old database, ids and all, and takes the new kinds', () => {
    const before = openDatabase(join(oldHome(), 'homunculus.db'), { migrations: MIGRATIONS.slice(0, 8) });
    const rows = before.prepare('SELECT * FROM instinct_events ORDER BY id').all();
    before.close();
    expect(rows).toHaveLength(10);

    const store = openStore({ home: dir.path });
    try {
      expect(store.health().schemaVersion).toBe(MIGRATIONS.length);
      expect(allEvents(store)).toEqual(rows);
      expect(store.instincts.events(1).map((e) => e.kind)).toEqual(KINDS);
      expect(store.instincts.convictions().map((c) => c.pattern)).toEqual(['pref:pkg=pnpm']);
      const db = rawDatabase(store);
      // The new kinds go in; anything else is still refused.
      const insert = db.prepare("INSERT INTO instinct_events (instinct_id, ts, kind) VALUES (1, '2026-02-01T00:00:00.000Z', ?)");
      for (const kind of ['edit', 'unpromote']) insert.run(kind);
      expect(() => insert.run('bogus')).toThrow(/CHECK constraint failed/);
      // The indexes are back, and the foreign key still cascades a removed instinct's events.
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'instinct_events' ORDER BY name")
        .all();
      expect(indexes).toEqual([
        { name: 'instinct_events_forgotten' },
        { name: 'instinct_events_instinct_ts' },
        { name: 'instinct_events_project' },
        { name: 'instinct_events_ts' },
      ]);
      expect(db.pragma('foreign_key_check')).toEqual([]);
      aliasPattern(store, 'pref:pkg=pnpm-install', 'pref:pkg=pnpm');
      expect(store.instincts.events(1).filter((e) => e.kind === 'create')).toHaveLength(2);
      // A forgetting on the migrated log keeps every row.
      forgetInstinct(store, 'pref:pkg=pnpm', 'cli');
      expect(store.instincts.forgottenEvents('pref:pkg=pnpm')).toHaveLength(10 + 2 + 1 + 1);
      expect((db.prepare('SELECT COUNT(*) AS n FROM instinct_events').get() as { n: number }).n).toBe(14);
    } finally {
      store.close();
    }
  });

  it('is recorded once and not run again', () => {
    oldHome();
    openStore({ home: dir.path }).close();
    const store = openStore({ home: dir.path });
    try {
      const applied = rawDatabase(store).prepare('SELECT version FROM schema_migrations WHERE version = 9').all();
      expect(applied).toEqual([{ version: 9 }]);
      expect(allEvents(store)).toHaveLength(10);
    } finally {
      store.close();
    }
  });
});

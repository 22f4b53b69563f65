import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

/** A database before migration 15: a user's correction stored without a project, beside others that must not move. */
function oldHome(): string {
  const db = openDatabase(join(dir.path, 'homunculus.db'), { migrations: MIGRATIONS.slice(0, 14) });
  expect(schemaVersion(db)).toBe(14);
  db.prepare("INSERT INTO sessions (id, project, project_name) VALUES ('s-cli', 'cli-fp', 'cli'), ('s-none', '', '')").run();
  const entity = db.prepare('INSERT INTO graph_entities (type, name, name_key, created_at, last_seen) VALUES (?, ?, ?, ?, ?)');
  entity.run('person', 'user', 'person:user', T0, T0);
  entity.run('preference', 'revert those changes', 'preference:revert those changes', T0, T0);
  const fact = db.prepare(`INSERT INTO graph_facts (source_id, target_id, relation, category, description, memory_type, confidence,
    valid_at, created_at, project, source_session, origin, metadata) VALUES (1, 2, 'prefers', 'actor', ?, 'semantic', 0.8, ?, ?, ?, ?, ?, ?)`);
  fact.run('The user corrected: no, revert those changes', T0, T0, '', 's-cli', 'deterministic', '{"signal":"correction"}');
  fact.run('The user said: keep it', T0, T0, '', 's-none', 'deterministic', '{"signal":"explicit"}');
  fact.run('I prefer tabs', T0, T0, '', '', 'manual', '{}');
  db.close();
  return dir.path;
}

describe('the signal scope migration (15)', () => {
  it("moves what a user said in a session to that session's project, and nothing else", () => {
    const store = openStore({ home: oldHome() });
    try {
      const rows = rawDatabase(store).prepare('SELECT description, project FROM graph_facts ORDER BY id').all();
      expect(rows).toEqual([
        { description: 'The user corrected: no, revert those changes', project: 'cli-fp' },
        { description: 'The user said: keep it', project: '' },
        { description: 'I prefer tabs', project: '' },
      ]);
      // The search documents follow the fact (their trigger copies the project).
      const docs = rawDatabase(store).prepare('SELECT project FROM documents WHERE id = -1').all();
      expect(docs).toEqual([{ project: 'cli-fp' }]);
    } finally {
      store.close();
    }
  });
});

import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { openDatabase } from './db.js';
import { MIGRATIONS } from './schema.js';
import { openStore } from './store.js';
import { rawDatabase } from './testing.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.cleanup());

const session = (id: string, files: string) => ({
  ...{ id, source: 'claude-code', project: 'p1', project_name: 'webapp', cwd: '/w' },
  ...{ started_at: '2026-01-05T10:00:00.000Z', ended_at: '2026-01-05T11:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
  ...{ files_touched: files, summary: `Session ${id}.`, continues_from: null, transcript_path: null, file_name: null },
});

const texts = (store: ReturnType<typeof openStore>) =>
  rawDatabase(store).prepare("SELECT ext_id, text FROM documents WHERE collection = 'sessions' ORDER BY ext_id").all();

describe('the session documents migration (11)', () => {
  it('rewrites the sessions stored before it: files as words, no bare []', () => {
    const old = openDatabase(join(dir.path, 'homunculus.db'), { migrations: MIGRATIONS.slice(0, 10) });
    const insert = old.prepare(`INSERT INTO sessions (id, source, project, project_name, cwd, started_at, ended_at, tools_used, tool_counts,
      files_touched, summary) VALUES (@id, @source, @project, @project_name, @cwd, @started_at, @ended_at, @tools_used, @tool_counts, @files_touched, @summary)`);
    insert.run(session('a', '[]'));
    insert.run(session('b', '["src/app.ts","src/login.tsx"]'));
    expect(old.prepare("SELECT text FROM documents WHERE ext_id = 'a'").pluck().get()).toBe('Session a.\n[]');
    old.close();
    const store = openStore({ home: dir.path });
    try {
      expect(texts(store)).toEqual([
        { ext_id: 'a', text: 'Session a.' },
        { ext_id: 'b', text: 'Session b.\nsrc/app.ts src/login.tsx' },
      ]);
      // The full-text index follows the rewritten text.
      const hits = rawDatabase(store)
        .prepare("SELECT d.ext_id FROM documents_fts f JOIN documents d ON d.id = f.rowid WHERE documents_fts MATCH 'login'")
        .pluck()
        .all();
      expect(hits).toEqual(['b']);
    } finally {
      store.close();
    }
  });

  it('writes new and updated sessions the same way', () => {
    const store = openStore({ home: dir.path });
    try {
      store.sessions.save(session('c', '[]'));
      store.sessions.save({ ...session('d', '["README.md"]') });
      store.sessions.save({ ...session('c', '["docs/x.md"]'), summary: 'Session c, later.' });
      expect(texts(store)).toEqual([
        { ext_id: 'c', text: 'Session c, later.\ndocs/x.md' },
        { ext_id: 'd', text: 'Session d.\nREADME.md' },
      ]);
    } finally {
      store.close();
    }
  });
});

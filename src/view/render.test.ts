import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { homePaths } from '../core/paths.js';
import { databaseCheck } from '../app/doctor-database.js';
import { forgetInstinct } from '../learn/corrections.js';
import { aliasPattern, observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { renderAll, renderInstinctMarkdown, unrenderedFiles } from './render.js';

const dirs: { cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));

function home(): string {
  const dir = tempDir('hom-render-');
  dirs.push(dir);
  return dir.path;
}

const learn = (store: ReturnType<typeof openStore>, keys: readonly string[]) => {
  for (const pattern of keys) observe(store, { pattern, trigger: `when ${pattern}`, action: `Do ${pattern}.`, occurrences: 3 });
};

describe('the readable view of instincts', () => {
  it('lists as sources only where the instinct was observed, not its decay or feedback', () => {
    const store = openStore({ home: home() });
    try {
      observe(store, { pattern: 'pref:pkg=pnpm', trigger: 'when installing', action: 'Use pnpm.', source: 'claude-code', occurrences: 3 });
      const row = store.instincts.get('pref:pkg=pnpm');
      if (!row) throw new Error('not learned');
      const event = { instinct_id: row.id, ts: row.last_seen, delta_evidence: 0, delta_confidence: -0.05, project: '' };
      store.instincts.addEvent({ ...event, kind: 'decay', source: 'decay', detail: '1 period(s)' });
      store.instincts.addEvent({ ...event, kind: 'feedback', source: 'cli', detail: 'strong' });
      const text = renderInstinctMarkdown(store, row);
      expect(text).toContain('- Sources: claude-code\n');
      expect(text).toContain('- Feedback: strong');
    } finally {
      store.close();
    }
  });

  it('removes the files of instincts the database forgot or merged, and keeps a note that is not an instinct', () => {
    const store = openStore({ home: home() });
    try {
      learn(store, ['pref:a=1', 'pref:b=2', 'pref:c=3']);
      renderAll(store);
      const note = join(store.paths.instincts, 'my-notes.md');
      writeFileSync(note, 'A note of mine, not an instinct.\n');
      forgetInstinct(store, 'pref:a=1', 'cli');
      aliasPattern(store, 'pref:b=2', 'pref:c=3');
      renderAll(store);
      expect(readdirSync(store.paths.instincts).sort()).toEqual(['my-notes.md', 'pref-c-3.md']);
    } finally {
      store.close();
    }
  });

  it('keeps the files of a database deleted and begun again, and the doctor says how to bring them back', () => {
    const at = home();
    const paths = homePaths(at);
    const first = openStore({ home: at });
    learn(first, ['pref:a=1', 'pref:b=2']);
    renderAll(first);
    first.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${paths.db}${suffix}`, { force: true });
    expect(databaseCheck(paths)).toMatchObject({
      status: 'fail',
      detail: 'no database, but 2 instinct files under instincts/ say one learned here: it was deleted or moved',
      fix: expect.stringMatching(/run `homunculus sync`: it brings those instincts back from their files first/),
    });
    // A hook opens the store again: a new, empty database, and a render of it.
    const again = openStore({ home: at });
    try {
      learn(again, ['pref:new=1']);
      renderAll(again);
      expect(readdirSync(paths.instincts).sort()).toEqual(['pref-a-1.md', 'pref-b-2.md', 'pref-new-1.md']);
      expect(unrenderedFiles(again)).toEqual({
        leftovers: [],
        strays: [join(paths.instincts, 'pref-a-1.md'), join(paths.instincts, 'pref-b-2.md')],
      });
    } finally {
      again.close();
    }
    expect(databaseCheck(paths)).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('2 files under instincts/ hold instincts this database has not taken in'),
    });
  });

  it('says a home with no database and no instinct files has no database yet', () => {
    expect(databaseCheck(homePaths(home()))).toMatchObject({ status: 'warn', detail: 'no database yet', fix: 'Run `homunculus init`.' });
  });
});

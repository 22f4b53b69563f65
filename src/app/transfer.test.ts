import { existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editInstinct } from '../learn/corrections.js';
import { giveFeedback, observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { renderAll } from '../view/render.js';
import { readArchiveRecords } from '../view/archive.js';
import { invoke } from './operation.js';
import { exportArchive, importFiles, restoreStrayFiles } from './transfer.js';

const dirs: { path: string; cleanup(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.cleanup()));
const home = () => {
  const d = tempDir('hom-transfer-');
  dirs.push(d);
  return d.path;
};

/** A store with two instincts: one edited by hand, one marked wrong. */
function corrected() {
  const store = openStore({ home: home() });
  for (const pattern of ['pref:pkg=pnpm', 'fix:flaky-retry'])
    observe(store, { pattern, trigger: `when ${pattern}`, action: `Do ${pattern}.`, occurrences: 3 });
  editInstinct(store, 'pref:pkg=pnpm', { action: 'Install with pnpm (my words).' }, 'cli');
  giveFeedback(store, 'fix:flaky-retry', 'wrong');
  renderAll(store);
  return store;
}

describe('moving corrected instincts', () => {
  it('brings back an edit and a "wrong" mark from the readable view into a new database', () => {
    const old = corrected();
    const files = old.paths.instincts;
    expect(readFileSync(join(files, 'fix-flaky-retry.md'), 'utf8')).toMatch(/^verdict: wrong$/m);
    old.close();
    const fresh = openStore({ home: home() });
    try {
      const r = invoke(importFiles, { store: fresh, env: {} }, { dir: files });
      expect(r).toMatchObject({ imported: 2, marked_wrong: 1 });
      expect(fresh.instincts.get('pref:pkg=pnpm')?.action).toBe('Install with pnpm (my words).');
      expect(fresh.instincts.list({ unrefuted: true }).map((i) => i.key)).toEqual(['pref:pkg=pnpm']);
      // Again: nothing to mark twice.
      expect(invoke(importFiles, { store: fresh, env: {} }, { dir: files })).toMatchObject({ marked_wrong: 0 });
    } finally {
      fresh.close();
    }
  });

  it('brings back only the files a database never held, leaving links and files it cannot read as they are', () => {
    const old = corrected();
    const files = old.paths.instincts;
    old.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${old.paths.db}${suffix}`, { force: true });
    const outside = join(home(), 'elsewhere.md');
    writeFileSync(outside, '---\nkey: pref:outside=1\ntrigger: when x\naction: Do x.\n---\n');
    symlinkSync(outside, join(files, 'linked.md'));
    writeFileSync(join(files, 'broken.md'), '---\nkey: pref:broken=1\n---\nno trigger\n');
    const fresh = openStore({ home: old.paths.home });
    const warnings: string[] = [];
    try {
      expect(restoreStrayFiles(fresh, (m) => warnings.push(m))).toMatchObject({ files: 3, imported: 2, marked_wrong: 1 });
      expect(fresh.instincts.get('pref:pkg=pnpm')?.action).toBe('Install with pnpm (my words).');
      expect(fresh.instincts.get('pref:outside=1')).toBeUndefined();
      expect(warnings).toEqual([expect.stringMatching(/^left .*broken\.md as it is: missing "trigger"$/)]);
      renderAll(fresh);
      // Brought back, they are this database's; what it could not read stays a stray, still there.
      expect(restoreStrayFiles(fresh)).toMatchObject({ files: 1, imported: 0 });
      expect(existsSync(join(files, 'broken.md'))).toBe(true);
    } finally {
      fresh.close();
    }
  });

  it('leaves an instinct marked wrong out of an export, and says so', async () => {
    const store = corrected();
    try {
      const out = join(home(), 'team.tar.gz');
      const r = await invoke(exportArchive, { store, env: {} }, { out });
      expect(r).toMatchObject({ instincts: 1, left_out_wrong: 1 });
      expect((await readArchiveRecords(out)).map((x) => (x as { key: string }).key)).toEqual(['pref:pkg=pnpm']);
    } finally {
      store.close();
    }
  });
});

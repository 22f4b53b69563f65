import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editInstinct } from '../learn/corrections.js';
import { giveFeedback, observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { scratchDir } from '../test-support/cli.js';
import { renderAll } from '../view/render.js';
import { readStrayFiles, restoreStrayFiles } from './restore.js';

const learnAgain = (store: ReturnType<typeof openStore>, pattern: string) =>
  observe(store, { pattern, trigger: `when ${pattern}`, action: `Do ${pattern}.`, occurrences: 3 });

/** A home whose database learned two instincts (one in the user's words, one marked wrong), then was deleted. */
function deletedDatabase() {
  const store = openStore({ home: scratchDir('hom-restore-') });
  for (const pattern of ['pref:pkg=pnpm', 'fix:flaky-retry']) learnAgain(store, pattern);
  editInstinct(store, 'pref:pkg=pnpm', { action: 'Install with pnpm (my words).' }, 'cli');
  giveFeedback(store, 'fix:flaky-retry', 'wrong');
  renderAll(store);
  store.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${store.paths.db}${suffix}`, { force: true });
  return store.paths;
}

describe('bringing back what a deleted database learned', () => {
  it('counts the history learned again once, and takes the words, marks and file names from the files', () => {
    const paths = deletedDatabase();
    const fresh = openStore({ home: paths.home });
    try {
      const strays = readStrayFiles(fresh);
      expect(strays?.files.map((f) => f.slice(paths.instincts.length + 1)).sort()).toEqual(['fix-flaky-retry.md', 'pref-pkg-pnpm.md']);
      // Learning the transcripts again renders: the new instinct does not take the old file.
      learnAgain(fresh, 'pref:pkg=pnpm');
      renderAll(fresh);
      expect(readFileSync(join(paths.instincts, 'pref-pkg-pnpm.md'), 'utf8')).toContain('Install with pnpm (my words).');
      expect(restoreStrayFiles(fresh, strays!)).toEqual({ files: 2, restored: 2, reworded: 1, marked_wrong: 1, skipped: [] });
      const pnpm = fresh.instincts.get('pref:pkg=pnpm');
      // The same three sessions, counted once.
      expect(pnpm).toMatchObject({ evidence: 3, action: 'Install with pnpm (my words).', file_name: 'pref-pkg-pnpm.md' });
      expect(fresh.instincts.list({ unrefuted: true }).map((r) => r.key)).toEqual(['pref:pkg=pnpm']);
      renderAll(fresh);
      expect(readdirSync(paths.instincts).sort()).toEqual(['fix-flaky-retry.md', 'pref-pkg-pnpm.md']);
      expect(readStrayFiles(fresh)).toBeUndefined();
    } finally {
      fresh.close();
    }
  });

  it('leaves a link and a file it cannot read as they are, saying why', () => {
    const paths = deletedDatabase();
    const outside = join(scratchDir('hom-outside-'), 'elsewhere.md');
    writeFileSync(outside, '---\nkey: pref:outside=1\ntrigger: when x\naction: Do x.\n---\n');
    symlinkSync(outside, join(paths.instincts, 'linked.md'));
    writeFileSync(join(paths.instincts, 'broken.md'), '---\nkey: pref:broken=1\n---\nno trigger\n');
    const fresh = openStore({ home: paths.home });
    const warnings: string[] = [];
    try {
      const r = restoreStrayFiles(fresh, readStrayFiles(fresh)!, (m) => warnings.push(m));
      expect(r).toMatchObject({ files: 3, restored: 2, marked_wrong: 1 });
      expect(fresh.instincts.get('pref:outside=1')).toBeUndefined();
      expect(warnings).toEqual([expect.stringMatching(/^left .*broken\.md as it is: missing "trigger"$/)]);
      renderAll(fresh);
      expect(existsSync(join(paths.instincts, 'broken.md'))).toBe(true);
      expect(readStrayFiles(fresh)?.files).toEqual([join(paths.instincts, 'broken.md')]);
    } finally {
      fresh.close();
    }
  });
});

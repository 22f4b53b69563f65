import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editInstinct, forgetInstinct, forgetRow } from '../learn/corrections.js';
import { giveFeedback, observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { sessionRow } from '../test-support/sessions.js';
import { renderAll } from '../view/render.js';
import { readArchiveRecords } from '../view/archive.js';
import { invoke } from './operation.js';
import { exportArchive, importArchive, importFiles } from './transfer.js';
import { getInstinct } from './instincts.js';
import { resolveProject } from './project-ref.js';
import { findEntity, upsertEntity } from '../graph/entities.js';

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

  it('keeps what the user forgot forgotten when an older archive brings it, saying why; what learning let go may come back', async () => {
    const store = corrected();
    try {
      observe(store, { pattern: 'seq:lint->test', trigger: 'after lint', action: 'Run the tests.', occurrences: 3 });
      const out = join(home(), 'old.tar.gz');
      await invoke(exportArchive, { store, env: {} }, { out });
      forgetInstinct(store, 'pref:pkg=pnpm', 'cli');
      // Let go by learning (a reason says why): no decision of the user's.
      forgetRow(store, store.instincts.get('seq:lint->test')!, 'learn', 'no longer seen one after the other');
      const warnings: string[] = [];
      const r = await invoke(importArchive, { store, env: {}, warn: (m) => warnings.push(m) }, { file: out });
      expect(r).toMatchObject({
        imported: 1,
        skipped: [{ reason: expect.stringMatching(/^you forgot it here on \d{4}-\d\d-\d\d; it stays forgotten/) }],
      });
      expect(store.instincts.get('pref:pkg=pnpm')).toBeUndefined();
      expect(store.instincts.get('seq:lint->test')).toBeDefined();
      expect(warnings).toEqual([expect.stringContaining('(pref:pkg=pnpm): you forgot it here')]);
    } finally {
      store.close();
    }
  });

  it("shares no user's home folder: paths in an export say ~", async () => {
    const store = openStore({ home: home() });
    try {
      observe(store, {
        pattern: 'pref:cli/build=make',
        trigger: 'when building in /Users/alex/workspace/cli',
        action: 'Run `cd /home/alex/cli && make`.',
        explain: 'seen in C:\\Users\\alex\\cli',
        metadata: { cwd: '/Users/alex/workspace/cli', other: '/usr/local/bin' },
        occurrences: 3,
      });
      const out = join(home(), 'team.tar.gz');
      await invoke(exportArchive, { store, env: {} }, { out });
      const [record] = (await readArchiveRecords(out)) as Record<string, unknown>[];
      expect(record).toMatchObject({
        trigger: 'when building in ~/workspace/cli',
        action: 'Run `cd ~/cli && make`.',
        explain: 'seen in ~\\cli',
        metadata: { cwd: '~/workspace/cli', other: '/usr/local/bin' },
      });
      expect(JSON.stringify(record)).not.toContain('alex');
    } finally {
      store.close();
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

  it("stores the level an imported instinct's evidence supports: a teammate's rule is a rule here at once", async () => {
    const source = openStore({ home: home() });
    const out = join(home(), 'team.tar.gz');
    try {
      observe(source, { pattern: 'pref:lint=mise-run-lint', trigger: 'when linting', action: 'Run `mise run lint`.', occurrences: 12 });
      observe(source, { pattern: 'fix:flaky-retry', trigger: 'when a test flakes', action: 'Retry it once.', occurrences: 6 });
      await invoke(exportArchive, { store: source, env: {} }, { out });
    } finally {
      source.close();
    }
    const fresh = openStore({ home: home() });
    try {
      await invoke(importArchive, { store: fresh, env: {} }, { file: out });
      const level = (key: string) => fresh.instincts.get(key)?.level;
      expect([level('pref:lint=mise-run-lint'), level('fix:flaky-retry')]).toEqual([2, 1]);
    } finally {
      fresh.close();
    }
  });

  it("names a teammate's project as its sessions did: `--project cli` finds it, and a name this store uses for another project stays that one's", async () => {
    const FP = '040c367c23054320';
    const source = openStore({ home: home() });
    const out = join(home(), 'team.tar.gz');
    try {
      source.sessions.save(sessionRow({ id: 's1', started_at: '2026-01-31T10:00:00.000Z', project: FP, project_name: 'cli' }));
      observe(source, {
        pattern: 'pref:cli/lint=mise-run-lint',
        trigger: 'when linting',
        action: 'Run `mise run lint`.',
        project: FP,
        occurrences: 3,
      });
      await invoke(exportArchive, { store: source, env: {} }, { out });
    } finally {
      source.close();
    }
    const fresh = openStore({ home: home() });
    const mine = openStore({ home: home() });
    try {
      await invoke(importArchive, { store: fresh, env: {} }, { file: out });
      expect(resolveProject(fresh, 'cli')).toBe(FP);
      expect(invoke(getInstinct, { store: fresh, env: {} }, { pattern: 'pref:cli/lint=mise-run-lint' }).given_in.projects).toEqual([
        { fingerprint: FP, name: 'cli' },
      ]);
      // A store with a "cli" of its own keeps it: the archive's is not renamed over it.
      mine.sessions.save(sessionRow({ id: 's1', started_at: '2026-01-31T10:00:00.000Z', project_name: 'cli' }));
      upsertEntity(mine, { name: 'cli', type: 'project', properties: { fingerprint: 'aaaaaaaaaaaaaaaa' } }, '2026-01-31T10:00:00.000Z');
      await invoke(importArchive, { store: mine, env: {} }, { file: out });
      expect(findEntity(mine, 'cli')?.properties.fingerprint).toBe('aaaaaaaaaaaaaaaa');
    } finally {
      fresh.close();
      mine.close();
    }
  });
});

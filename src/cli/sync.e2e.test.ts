/** `homunculus sync`, the main job, through the built binary: on a synthetic corpus, and on the real one when ../shared is there. */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { runCli, runCliJson } from '../test-support/run-cli.js';
import { writeSyntheticCorpus } from '../test-support/corpus.js';
import { TRANSCRIPTS, hasShared } from '../test-support/shared.js';

let home: ReturnType<typeof tempDir>;
beforeAll(() => (home = tempDir()));
afterAll(() => home.cleanup());

interface SyncSummary {
  imported: { files: number; sessions: number; observations: number };
  learned: {
    status: string;
    sessions: number;
    observations: number;
    created: string[];
    new_rules: { key: string; rule: string }[];
  };
  instincts: number;
  pending_observations: number;
  embedded: number;
  claude_code_hooks: boolean;
  capturing: string[];
}

describe('sync on transcripts the test writes', () => {
  it('imports them from ~/.claude/projects, learns the repeated correction, embeds, and is a no-op the second time', async () => {
    const fresh = tempDir();
    try {
      writeSyntheticCorpus(fresh.path, { sessions: 4 });
      const first = await runCliJson<SyncSummary>(fresh.path, ['sync']);
      expect(first.imported).toMatchObject({ files: 4, sessions: 4 });
      expect(first.imported.observations).toBeGreaterThan(40);
      expect(first.learned).toMatchObject({ status: 'done', sessions: 4, observations: first.imported.observations });
      expect(first.learned.created.some((k) => /pnpm/.test(k))).toBe(true);
      // What it learned, in the words the agent reads: never an internal key.
      const pnpm = first.learned.new_rules.find((r) => /pnpm/.test(r.key));
      expect(pnpm?.rule).toMatch(/pnpm/);
      expect(pnpm?.rule).not.toContain(pnpm?.key);
      expect(first.pending_observations).toBe(0);
      expect(first.embedded).toBeGreaterThanOrEqual(4);
      expect((await runCliJson<{ missing: number }>(fresh.path, ['embed', '--status'])).missing).toBe(0);
      // Whether `init` is still the next step: the summary knows.
      expect(first.claude_code_hooks).toBe(false);
      expect((await runCli(fresh.path, ['init', '--claude'])).status).toBe(0);
      const second = await runCliJson<SyncSummary>(fresh.path, ['sync']);
      expect(second.claude_code_hooks).toBe(true);
      // Codex's hooks too: the next step names both, not `init --claude`.
      expect((await runCli(fresh.path, ['init', '--codex'])).status).toBe(0);
      const third = await runCli(fresh.path, ['sync']);
      expect(third.stdout).toContain('new Claude Code, Codex sessions are learned from as they end.');
      expect(second.imported.observations).toBe(0);
      expect(second.learned.observations).toBe(0);
      expect(second.instincts).toBe(first.instincts);
      expect(second.embedded).toBe(0);
    } finally {
      fresh.cleanup();
    }
  });

  it('learns the same instincts with the same first and last seen whatever the date of the import', async () => {
    const learnedAt = async (now: string) => {
      const fresh = tempDir();
      try {
        writeSyntheticCorpus(fresh.path, { sessions: 4 });
        await runCliJson(fresh.path, ['sync', '--no-embed'], { HOMUNCULUS_NOW: now });
        const list = await runCliJson<{ instincts: { pattern: string; first_seen: string; last_seen: string }[] }>(
          fresh.path,
          ['list', '--min-evidence', '1'],
          { HOMUNCULUS_NOW: now },
        );
        return list.instincts
          .map((i) => ({ key: i.pattern, first: i.first_seen, last: i.last_seen }))
          .sort((a, b) => a.key.localeCompare(b.key));
      } finally {
        fresh.cleanup();
      }
    };
    const spring = await learnedAt('2026-03-20T12:00:00Z');
    expect(spring.length).toBeGreaterThan(0);
    // Times come from the transcripts (March 2026), never from the day of the import.
    expect(spring.every((i) => i.first.startsWith('2026-03') && i.last.startsWith('2026-03'))).toBe(true);
    expect(await learnedAt('2026-09-01T12:00:00Z')).toEqual(spring);
  });

  it('says what it learned in plain words, without internal keys', async () => {
    const fresh = tempDir();
    try {
      const files = writeSyntheticCorpus(fresh.path, { sessions: 4 });
      // A file that is no transcript is said, as import-transcripts says it.
      writeFileSync(join(dirname(files[0] as string), 'garbage.jsonl'), '\u0000\u0001 binary\n[1,2,3]\n');
      const { stdout } = await runCli(fresh.path, ['sync', '--no-embed', '--no-progress']);
      const added = stdout.split('\n').filter((l) => l.startsWith('  + '));
      expect(added.some((l) => /pnpm/.test(l))).toBe(true);
      expect(added.join('\n')).not.toMatch(/\b(?:pref|seq|fix|combo):/);
      // The count is of the instincts listed, those standing at the end.
      expect(stdout).toMatch(new RegExp(`: ${added.length} new instincts?[ ,]`));
      expect(stdout).toMatch(/^Imported 4 of 5 transcripts \(0 unchanged since the last import(, 1 with no session in them)?\)/m);
      expect(stdout).toMatch(/could not read .*garbage\.jsonl|1 with no session in them/);
    } finally {
      fresh.cleanup();
    }
  });

  it('brings back what a deleted database learned, with the edits and "wrong" marks in its files, before learning again', async () => {
    const fresh = tempDir();
    try {
      writeSyntheticCorpus(fresh.path, { sessions: 4 });
      await runCliJson(fresh.path, ['sync', '--no-embed']);
      const listed = async () =>
        (
          await runCliJson<{ instincts: { pattern: string; action: string; evidence: number }[] }>(fresh.path, [
            'list',
            '--min-evidence',
            '1',
          ])
        ).instincts;
      const before = await listed();
      const [edited, wrong] = before.map((i) => i.pattern);
      expect(wrong).toBeDefined();
      await runCliJson(fresh.path, ['edit', edited as string, '--action', 'My own words for it.']);
      await runCliJson(fresh.path, ['feedback', wrong as string, 'wrong']);
      for (const suffix of ['', '-wal', '-shm']) rmSync(join(fresh.path, `homunculus.db${suffix}`), { force: true });
      // A hook (here `status`) begins a new, empty database; the files are the only copy left.
      await runCliJson(fresh.path, ['status']);
      const { stdout } = await runCli(fresh.path, ['sync', '--no-embed', '--no-progress']);
      expect(stdout).toMatch(
        /^Brought back \d+ instincts from their files under instincts\/ \(an earlier database's\): 1 instinct in your words, 1 marked wrong again\.$/m,
      );
      const after = await listed();
      expect(after.find((i) => i.pattern === edited)?.action).toBe('My own words for it.');
      // The same sessions learned again are counted once: the same instincts, the same evidence.
      const evidence = (list: typeof before) => list.map((i) => [i.pattern, i.evidence]).sort();
      expect(evidence(after)).toEqual(evidence(before));
      const verdict = await runCliJson<{ verdict?: string }>(fresh.path, ['get', wrong as string]);
      expect(JSON.stringify(verdict)).toMatch(/wrong/);
      // Once brought back, they are this database's: the next sync brings back nothing.
      expect((await runCli(fresh.path, ['sync', '--no-embed', '--no-progress'])).stdout).not.toMatch(/Brought back/);
    } finally {
      fresh.cleanup();
    }
  });

  it('reports a missing path as a usage error and changes nothing', async () => {
    const before = (await runCliJson<{ observations: number }>(home.path, ['status'])).observations;
    const result = await runCli(home.path, ['sync', join(home.path, 'no-such-dir')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/No such file or directory/);
    expect((await runCliJson<{ observations: number }>(home.path, ['status'])).observations).toBe(before);
  });

  it('exits 1 when a file named on the command line is no transcript, after importing the ones that are', async () => {
    const fresh = tempDir();
    try {
      const [good] = writeSyntheticCorpus(fresh.path, { sessions: 1 });
      const notes = join(fresh.path, 'notes.txt');
      writeFileSync(notes, 'hello\n');
      for (const command of ['sync', 'import-transcripts']) {
        const result = await runCli(fresh.path, [
          command,
          good as string,
          notes,
          '--no-progress',
          ...(command === 'sync' ? ['--no-embed'] : []),
        ]);
        expect(result.status).toBe(1);
        expect(result.stdout).toMatch(/could not read .*notes\.txt: not a transcript/);
      }
      expect((await runCliJson<{ observations: number }>(fresh.path, ['status'])).observations).toBeGreaterThan(0);
    } finally {
      fresh.cleanup();
    }
  });
});

describe.runIf(hasShared('sync on the real transcript corpus'))('sync on real transcripts', () => {
  it('imports transcripts from ~/.claude/projects, learns, and is a no-op the second time', async () => {
    const source = TRANSCRIPTS;
    const project = join(home.path, '.claude', 'projects', '-Users-someone-cli');
    mkdirSync(project, { recursive: true });
    for (const file of readdirSync(source).sort().slice(0, 12)) copyFileSync(join(source, file), join(project, file));

    const first = await runCliJson<SyncSummary>(home.path, ['sync']);
    expect(first.imported.files).toBe(12);
    expect(first.imported.sessions).toBeGreaterThanOrEqual(12);
    expect(first.imported.observations).toBeGreaterThan(100);
    expect(first.learned.status).toBe('done');
    expect(first.learned.observations).toBe(first.imported.observations);
    expect(first.pending_observations).toBe(0);
    // The bundled model embedded what sync stored: search is hybrid from the first query.
    expect(first.embedded).toBeGreaterThanOrEqual(12);
    expect(await runCliJson<{ missing: number; current: number }>(home.path, ['embed', '--status'])).toMatchObject({
      missing: 0,
      current: first.embedded,
    });

    const second = await runCliJson<SyncSummary>(home.path, ['sync']);
    expect(second.imported.observations).toBe(0);
    expect(second.learned.observations).toBe(0);
    expect(second.instincts).toBe(first.instincts);
    expect(second.embedded).toBe(0);
    // It embeds every session, turn and instinct of 12 real sessions with the bundled model, then syncs again:
    // about 55 s alone on 2 cores, more beside other work.
  }, 180_000);
});

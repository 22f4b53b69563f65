/** The learning commands through the built binary: decay across weeks, concurrent runs, errors. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../core/lock.js';
import { openStore } from '../store/store.js';
import { type Step, stepRows } from '../test-support/learning.js';
import { convertTranscript, insertSession } from '../test-support/transcripts.js';
import { writeSyntheticCorpus } from '../test-support/corpus.js';
import { runCli } from '../test-support/run-cli.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const bin = join(root, 'dist', 'cli', 'bin.js');
let homes: string[] = [];

afterEach(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
  homes = [];
});

function home(): string {
  const h = mkdtempSync(join(tmpdir(), 'hom-cli-learn-'));
  homes.push(h);
  return h;
}

/** A real process: for what must not share this one (a lock held here). */
function processCli(h: string, args: string[], now?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    env: { ...process.env, HOMUNCULUS_HOME: h, HOMUNCULUS_NOW: now ?? '' },
    encoding: 'utf8',
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

async function cli(h: string, args: string[], now?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await runCli(h, args, { env: { HOMUNCULUS_NOW: now ?? '' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function json<T = Record<string, unknown>>(h: string, args: string[], now?: string): Promise<T> {
  const r = await cli(h, [...args, '--json'], now);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

function insert(h: string, list: Step[], sessionId: string, start: string): void {
  const store = openStore({ home: h });
  try {
    for (const row of stepRows(list, { sessionId, start })) store.observations.insert(row);
  } finally {
    store.close();
  }
}

const PNPM: Step[] = [{ prompt: 'No, use pnpm, not npm.' }, { bash: 'pnpm install' }];

describe('homunculus learn (built binary)', () => {
  it('decays an idle instinct by 0.05 per week, to the 0.20 floor, across weeks of HOMUNCULUS_NOW', async () => {
    const h = home();
    for (const [i, day] of ['01', '02', '03'].entries()) insert(h, PNPM, `s${i}`, `2026-03-${day}T10:00:00Z`);
    const first = await json<{ created: { pattern: string; confidence: number }[] }>(h, ['learn'], '2026-03-03T12:00:00Z');
    expect(first.created).toMatchObject([{ pattern: 'pref:use-pnpm-not-npm', confidence: 0.5 }]);
    const score = async (now: string): Promise<number> =>
      (await json<{ confidence: number }>(h, ['get', 'pref:use-pnpm-not-npm'], now)).confidence;
    expect(await score('2026-03-09T12:00:00Z')).toBe(0.5);
    expect(await score('2026-03-24T12:00:00Z')).toBe(0.35);
    // A learning run folds the decay in and logs it; running again in the same week changes nothing.
    expect((await json<{ decay: { decayed: number } }>(h, ['learn'], '2026-03-24T12:00:00Z')).decay.decayed).toBe(1);
    expect((await json<{ decay: { decayed: number } }>(h, ['learn'], '2026-03-25T12:00:00Z')).decay.decayed).toBe(0);
    const history = await json<{ timeline: { kind: string; delta_confidence: number }[] }>(
      h,
      ['history', 'pref:use-pnpm-not-npm', '--days', '90'],
      '2026-03-25T12:00:00Z',
    );
    expect(history.timeline.map((e) => [e.kind, e.delta_confidence])).toEqual([
      ['create', 0.5],
      ['decay', -0.15],
    ]);
    // The evidence added, and in how many sightings: three sessions' worth came in one.
    const said = await cli(h, ['history', 'pref:use-pnpm-not-npm', '--days', '90'], '2026-03-25T12:00:00Z');
    expect(said.stdout).toMatch(/^pref:use-pnpm-not-npm: evidence \+3 in the last 90 days \(1 sighting/);
    expect(await score('2026-09-01T12:00:00Z')).toBe(0.2);
    // Seen again: last_seen resets and the score rises from its decayed value.
    insert(h, PNPM, 's9', '2026-04-01T10:00:00Z');
    const again = await json<{ reinforced: { pattern: string; confidence: number }[] }>(h, ['learn'], '2026-04-01T12:00:00Z');
    expect(again.reinforced).toMatchObject([{ pattern: 'pref:use-pnpm-not-npm', confidence: 0.35 }]);
    // Which feedback it was, on its line.
    await cli(h, ['feedback', 'pref:use-pnpm-not-npm', 'wrong'], '2026-04-02T12:00:00Z');
    const marked = await cli(h, ['history', 'pref:use-pnpm-not-npm', '--days', '90'], '2026-04-02T12:00:00Z');
    expect(marked.stdout).toMatch(/^2026-04-02T12:00:00 {2}feedback wrong {2}/m);
  });

  it('runs once when two stop hooks start it together, and loses nothing', async () => {
    const h = home();
    const files = writeSyntheticCorpus(h, { sessions: 24, start: '2026-01-10T09:00:00Z' });
    const store = openStore({ home: h });
    for (const f of files) insertSession(store, convertTranscript(f, { remote: 'https://github.com/acme/shop.git' }));
    const total = store.observations.count();
    store.close();
    const run = (): Promise<{ status: string; observations: number }> =>
      new Promise((done, fail) => {
        const child = spawn(process.execPath, [bin, 'learn', '--json'], {
          env: { ...process.env, HOMUNCULUS_HOME: h, HOMUNCULUS_NOW: '2026-02-20T00:00:00Z' },
        });
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('error', fail);
        child.on('close', (code) =>
          code === 0 ? done(JSON.parse(out) as { status: string; observations: number }) : fail(new Error(`exit ${code}`)),
        );
      });
    const results = await Promise.all([run(), run()]);
    const done = results.filter((r) => r.status === 'done');
    expect(done.length).toBeGreaterThanOrEqual(1);
    // Either the second found the lock taken, or it started after the first finished and found nothing left.
    expect(results.reduce((n, r) => n + r.observations, 0)).toBeLessThanOrEqual(total);
    const after = openStore({ home: h });
    try {
      expect(after.observations.count({ pendingOnly: true })).toBe(0);
      expect(after.learning.countRuns('done')).toBe(done.length);
      const evidence = after.instincts.list().map((r) => [r.key, r.evidence]);
      // Same result as one sequential run over the same sessions (no double counting).
      const solo = home();
      const soloStore = openStore({ home: solo });
      for (const f of files) insertSession(soloStore, convertTranscript(f, { remote: 'https://github.com/acme/shop.git' }));
      soloStore.close();
      await json(solo, ['learn'], '2026-02-20T00:00:00Z');
      const reference = openStore({ home: solo });
      expect(evidence).toEqual(reference.instincts.list().map((r) => [r.key, r.evidence]));
      reference.close();
    } finally {
      after.close();
    }
  });

  it('reports a held lock as such and exits 0', async () => {
    const h = home();
    insert(h, PNPM, 's1', '2026-03-01T10:00:00Z');
    const release = acquireLock(join(h, 'locks', 'observer.lock'), { staleMs: 60_000 });
    try {
      expect((await json<{ status: string }>(h, ['learn'])).status).toBe('locked');
      expect(processCli(h, ['learn']).stdout).toContain('Another learning run holds the lock');
    } finally {
      release?.();
    }
    expect(await json<{ status: string; observations: number }>(h, ['learn'])).toMatchObject({ status: 'done', observations: 2 });
  });

  it('warns about an invalid llm section and still learns deterministically', async () => {
    const h = home();
    insert(h, PNPM, 's1', '2026-03-01T10:00:00Z');
    writeFileSync(join(h, 'config.json'), JSON.stringify({ llm: { provider: 'openai-compatible', model: 'qwen' } }));
    const r = await cli(h, ['learn', '--json'], '2026-03-01T12:00:00Z');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('llm.baseUrl is required for an OpenAI-compatible server');
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'done', llm: { mode: 'off' } });
    const doctor = await cli(h, ['doctor', '--json']);
    expect(doctor.stdout).toContain('llm.baseUrl is required');
  });

  it('rejects bad options with exit code 2 and a fix', async () => {
    const h = home();
    for (const args of [
      ['trending', '--days', '0'],
      ['duplicates', '--threshold', '2'],
      ['gc', '--archive-after', 'soon'],
      // Below 0.5 gc would merge rules that only share words.
      ['gc', '--threshold', '0.01'],
      ['effectiveness', '--days', '-3'],
      ['chains', '--window', 'x'],
    ]) {
      const r = await cli(h, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/must be/);
    }
    expect((await cli(h, ['history'])).code).toBe(2);
    const missing = await cli(h, ['history', 'pref:nope']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Not found: pref:nope');
  });

  it('prints the contract keys for the maintenance and insight commands', async () => {
    const h = home();
    for (const [i, day] of ['01', '02', '03'].entries()) insert(h, PNPM, `s${i}`, `2026-03-${day}T10:00:00Z`);
    await json(h, ['learn'], '2026-03-03T12:00:00Z');
    expect(Object.keys(await json(h, ['gc'], '2026-03-04T00:00:00Z'))).toEqual([
      'decay',
      'dedup',
      'orphans_cleaned',
      'fts_rebuilt',
      'observations',
      'sessions_archived',
      'conversations_forgotten',
    ]);
    expect(Object.keys(await json(h, ['consolidate'], '2026-03-04T00:00:00Z'))).toEqual([
      'promoted_to_mature',
      'promoted_to_rule',
      'promoted_to_universal',
      'chains_detected',
      'chains_created',
      'total',
      'timestamp',
    ]);
    expect(await json(h, ['trending'], '2026-03-04T00:00:00Z')).toMatchObject({
      period_days: 7,
      trending: [{ pattern: 'pref:use-pnpm-not-npm', observations_in_period: 1 }],
    });
    expect(await json(h, ['effectiveness'], '2026-03-04T00:00:00Z')).toEqual({
      patterns: [],
      summary: { total_suggested: 0, total_confirmed: 0, overall_rate: 0, period_days: 30 },
    });
    expect(await json(h, ['duplicates'])).toMatchObject({ count: 0, duplicates: [] });
    expect(await json(h, ['chains'])).toEqual({ chains_created: 0, chains_reinforced: 0, candidates_seen: 0 });
    expect((await json<{ count: number }>(h, ['episodes'])).count).toBe(0);
    expect((await json<{ months: { month: string; total: number }[] }>(h, ['tool-usage'])).months).toEqual([
      { month: '2026-03', tools: { Bash: 3 }, total: 3, topTool: 'Bash' },
    ]);
  });
});

/**
 * The learning run on real Claude Code sessions (../shared/data/claude-code-transcripts),
 * with patterns the test plants itself: each is learned exactly once, with the right
 * category, confidence and evidence; two sessions only make an episode; noise alone makes
 * no instinct.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseJsonObject, parseStringArray } from '../store/json.js';
import { observationColumns } from '../store/observations.js';
import { type TempStore, stepRows, tempStores } from '../test-support/learning.js';
import { type TranscriptSession, convertTranscript, plant, replaySessions } from '../test-support/transcripts.js';
import { TRANSCRIPTS, hasShared } from '../test-support/shared.js';
import { qualityGate } from './gate.js';
import { mineSession } from './mine/index.js';
import { checkObservation } from './observation.js';

const REMOTE = 'https://github.com/acme/planted.git';
let pool: TranscriptSession[] = [];
const fresh = tempStores('2026-06-01T00:00:00Z');

/** Gate-passing candidate keys of a session, as the run would count them. */
function gatedKeys(session: TranscriptSession): string[] {
  const now = new Date('2026-06-01T00:00:00Z');
  const obs = session.observations
    .map((o, i) => checkObservation({ id: i, ...observationColumns(o), processed_at: null }, now))
    .flatMap((c) => (c.ok ? [c.obs] : []));
  return mineSession(obs)
    .candidates.filter((c) => qualityGate(c).pass)
    .map((c) => c.key);
}

/** Real sessions in which no gate-passing pattern recurs in 3 of them: ordinary work, nothing to learn. */
function noiseSessions(count: number): TranscriptSession[] {
  const counts = new Map<string, number>();
  const chosen: TranscriptSession[] = [];
  for (const session of pool) {
    const keys = [...new Set(gatedKeys(session))];
    if (keys.some((k) => (counts.get(k) ?? 0) >= 2)) continue;
    for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
    chosen.push(session);
    if (chosen.length === count) break;
  }
  return chosen;
}

const correction = (text: string) => (at: Parameters<Parameters<typeof plant>[1]>[0]) =>
  stepRows([{ prompt: text }], {
    start: at.start,
    sessionId: at.sessionId,
    cwd: at.cwd,
    project: at.project,
    projectName: at.projectName,
  }).map((r, i) => ({
    ...r,
    tool_use_id: `prompt:planted-${at.sessionId}-${i}`,
  }));

const fixSequence = (at: Parameters<Parameters<typeof plant>[1]>[0]) =>
  stepRows(
    [
      {
        bash: 'npx tsc --noEmit',
        error:
          "Exit code 2 | src/api/client.ts(12,5): error TS2307: Cannot find module '@acme/sdk' or its corresponding type declarations.",
      },
      { read: 'src/api/client.ts' },
      { edit: 'src/api/client.ts' },
      { bash: 'npx tsc --noEmit' },
    ],
    { start: at.start, sessionId: at.sessionId, cwd: at.cwd, project: at.project, projectName: at.projectName, gap: 1 },
  ).map((r, i) => ({ ...r, tool_use_id: `planted-fix-${at.sessionId}-${i}` }));

const filePair = (at: Parameters<Parameters<typeof plant>[1]>[0]) =>
  stepRows([{ edit: 'src/store/schema.ts' }, { edit: 'src/store/migrations.ts' }], {
    start: at.start,
    sessionId: at.sessionId,
    cwd: at.cwd,
    project: at.project,
    projectName: at.projectName,
    gap: 1,
  }).map((r, i) => ({ ...r, tool_use_id: `planted-pair-${at.sessionId}-${i}` }));

const keysOf = (t: TempStore): Set<string> => new Set(t.store.instincts.list().map((r) => r.key));

const CORPUS_PRESENT = hasShared('learning on real sessions (learn/run.test.ts)');

beforeAll(() => {
  if (!CORPUS_PRESENT) return;
  const dir = TRANSCRIPTS;
  pool = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .slice(0, 80)
    .map((f) => convertTranscript(join(dir, f), { remote: REMOTE }))
    .filter((s) => s.observations.length > 20)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
});

describe.runIf(CORPUS_PRESENT)('learn on real sessions', () => {
  it('learns nothing from noise alone, although junk recurs in it', async () => {
    const noise = noiseSessions(6);
    expect(noise).toHaveLength(6);
    const t = fresh();
    const reports = await replaySessions(t.store, noise);
    expect(t.store.instincts.list()).toEqual([]);
    expect(t.store.observations.count({ pendingOnly: true })).toBe(0);
    const rejected = new Map<string, number>();
    for (const r of reports)
      for (const [reason, n] of Object.entries(r.rejected.by_reason)) rejected.set(reason, (rejected.get(reason) ?? 0) + n);
    // What the gate turned away recurred: it would have become instincts without the gate.
    expect([...rejected.values()].reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(3);
  });

  it('learns each planted pattern exactly once, with the right category, confidence and evidence', async () => {
    const noise = noiseSessions(6);
    const baseline = fresh();
    await replaySessions(baseline.store, noise);
    // Each pattern in three sessions of its own (overlapping sets, so they also meet).
    const planted = noise.map((s, i) => {
      let out = s;
      if ([0, 2, 4].includes(i)) out = plant(out, correction('No, use pnpm, not npm.'));
      if ([1, 3, 5].includes(i)) out = plant(out, fixSequence);
      if ([1, 2, 5].includes(i)) out = plant(out, filePair);
      return out;
    });
    const t = fresh();
    const reports = await replaySessions(t.store, planted);
    const learned = [...keysOf(t)].filter((k) => !keysOf(baseline).has(k)).sort();
    const pair = `combo:planted:src/store/migrations.ts+src/store/schema.ts`;
    expect(learned).toEqual([pair, 'fix:ts-ts2307', 'pref:use-pnpm-not-npm'].sort());
    const rows = new Map(t.store.instincts.list().map((r) => [r.key, r]));
    expect(rows.get('pref:use-pnpm-not-npm')).toMatchObject({
      category: 'preference',
      evidence: 3,
      project: '',
      action: 'Use pnpm, not npm.',
    });
    expect(rows.get('fix:ts-ts2307')).toMatchObject({ category: 'fix_pattern', evidence: 3, domain: 'debugging' });
    expect(rows.get(pair)).toMatchObject({ category: 'combo', evidence: 3 });
    // Each starts at 0.5 (a pattern recurring to 3 occurrences); later runs only decay it by whole weeks.
    const createdAt = new Map(reports.flatMap((r) => r.created.map((c) => [c.pattern, c] as const)));
    for (const key of learned) {
      expect(createdAt.get(key)).toMatchObject({ confidence: 0.5, evidence: 3 });
      expect([0.5, 0.45, 0.4]).toContain(rows.get(key)?.confidence);
    }
    const fixMeta = parseJsonObject(rows.get('fix:ts-ts2307')?.metadata);
    expect(fixMeta).toMatchObject({ miner: 'error-fix', sessions: 3 });
    expect(fixMeta.examples).toHaveLength(3);
    expect(String((fixMeta.examples as string[])[0])).toContain("Cannot find module '@acme/sdk'");
    // Created once: the sixth session saw nothing new for them.
    const created = reports.flatMap((r) => r.created.map((c) => c.pattern));
    expect(created.filter((k) => learned.includes(k)).sort()).toEqual(learned);
    // The correction and the fix were episodes until their third session, then promoted and removed.
    expect(reports[2]?.episodes.map((e) => e.pattern)).toEqual(['pref:use-pnpm-not-npm']);
    expect(reports[3]?.episodes.map((e) => e.pattern)).toEqual(['fix:ts-ts2307']);
    expect(reports[4]?.created.map((c) => [c.pattern, c.from])).toEqual([['pref:use-pnpm-not-npm', 'episode']]);
    expect(reports[5]?.created.map((c) => c.pattern).sort()).toEqual([pair, 'fix:ts-ts2307']);
    expect(t.store.episodes.list().map((e) => e.pattern)).not.toContain('pref:use-pnpm-not-npm');
    expect(readdirSync(join(t.home, 'episodes')).some((f) => f.includes('pnpm'))).toBe(false);
    // The rendered instinct (the readable format) carries the evidence of each session.
    const file = readFileSync(join(t.home, 'instincts', 'personal', `${rows.get('fix:ts-ts2307')?.file_name}`), 'utf8');
    expect(file).toMatch(/^---\ntrigger: when `npx tsc` fails with TypeScript TS2307\n/);
    expect(file.match(/Cannot find module '@acme\/sdk'/g)?.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps a pattern seen in only two sessions as an episode, rendered in the readable format', async () => {
    const noise = noiseSessions(4);
    const planted = noise.map((s, i) => (i === 0 || i === 2 ? plant(s, correction('No, use pnpm, not npm.')) : s));
    const t = fresh();
    const reports = await replaySessions(t.store, planted);
    expect(t.store.instincts.list().map((r) => r.key)).not.toContain('pref:use-pnpm-not-npm');
    const episode = t.store.episodes.list().find((e) => e.pattern === 'pref:use-pnpm-not-npm');
    expect(episode).toMatchObject({ occurrences: 2, title: 'Use pnpm, not npm' });
    expect(parseStringArray(episode?.session_ids)).toEqual([planted[0]?.sessionId, planted[2]?.sessionId]);
    const file = join(t.home, 'episodes', episode?.file_name ?? 'missing');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^---\ndate: .+\ntype: episode\n/);
    expect(text).toContain('# Use pnpm, not npm');
    expect(text).toContain('User: "no, use pnpm, not npm."');
    expect(reports.at(-1)?.status).toBe('done');
  });
});

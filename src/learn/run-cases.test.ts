/** The learning run's edge cases on small synthetic sessions: contradictions, bad input, crashes, concurrency, the LLM fallback. */
import { MockLanguageModelV3 } from 'ai/test';
import { rawDatabase } from '../store/testing.js';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLock } from '../core/lock.js';
import { MARKER_END, MARKER_START } from '../core/rule-markers.js';
import { aiSdkProvider } from '../llm/provider.js';
import { TokenBudget } from '../llm/budget.js';
import { tempDir } from '../test-support/cli.js';
import { type Step, type TempStore, stepRows, tempStores } from '../test-support/learning.js';
import { selectStartInstincts } from '../context/session-start.js';
import { parseJsonObject } from '../store/json.js';
import { createLlmObserver } from './llm-observer.js';
import type { SessionObserver } from './llm-observer.js';
import { giveFeedback } from './instincts.js';
import { lockPath, runLearn } from './run.js';

const fresh = tempStores('2026-03-05T12:00:00Z');

let sessionNo = 0;
/** Inserts one finished session of steps, at `day` (2026-03-DD), and returns its id. */
function session(t: TempStore, list: Step[], day = 2): string {
  const sessionId = `s-${++sessionNo}`;
  const start = `2026-03-${String(day).padStart(2, '0')}T10:00:00Z`;
  for (const row of stepRows([...list], { sessionId, start })) t.store.observations.insert(row);
  t.store.observations.insert({
    source: 'claude-code',
    session_id: sessionId,
    tool_use_id: 'session_end',
    ts: `2026-03-${String(day).padStart(2, '0')}T11:00:00Z`,
    event: 'session_end',
  });
  return sessionId;
}

const PNPM: Step[] = [{ prompt: 'No, use pnpm, not npm.' }, { bash: 'pnpm install' }];
const NPM: Step[] = [{ prompt: 'use npm, not pnpm' }, { bash: 'npm install' }];
const PAIR: Step[] = [{ edit: 'src/store/schema.ts' }, { edit: 'src/store/migrations.ts' }];

describe('the age of what is learned', () => {
  it('counts from the first session that showed it, not from the third that made it an instinct', async () => {
    const t = fresh();
    for (const day of [1, 3, 4]) session(t, PNPM, day);
    await runLearn(t.store);
    const row = t.store.instincts.list().find((r) => r.key.includes('pnpm'));
    expect(row?.first_seen).toMatch(/^2026-03-01T10:/);
    expect(row?.last_seen).toMatch(/^2026-03-04T/);
  });
});

describe('a commit style', () => {
  const commits = (...messages: string[]): Step[] => messages.map((m) => ({ bash: `git commit -m "${m}"` }));

  it("becomes the project's rule once three sessions commit that way, but not where most of its commits are written otherwise", async () => {
    const t = fresh();
    session(t, commits('fix(cart): round totals', 'test: cover rounding'), 1);
    session(t, commits('feat: add coupons'), 2);
    session(t, commits('chore: bump deps'), 3);
    await runLearn(t.store);
    expect(t.store.instincts.get('pref:demo/commit-style=conventional')?.action).toMatch(/^Write it as a Conventional Commit/);

    const mixed = fresh();
    for (const day of [1, 1, 2, 2]) session(mixed, commits('Add the wingman review'), day);
    for (const day of [3, 4, 4]) session(mixed, commits('fix: a conventional one'), day);
    const report = await runLearn(mixed.store);
    expect(mixed.store.instincts.get('pref:demo/commit-style=conventional')).toBeUndefined();
    expect(JSON.stringify(report)).toContain('followed in 3 of 7 sessions that commit here (needs 75%)');
  });
});

describe('contradictions', () => {
  it('lower an instinct by 0.10 once 3 sessions contradict it, not before', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PNPM, 2);
    await runLearn(t.store);
    expect(t.store.instincts.get('pref:use-pnpm-not-npm')?.confidence).toBe(0.5);
    session(t, NPM, 3);
    session(t, NPM, 3);
    const two = await runLearn(t.store);
    expect(two.contradictions).toEqual([]);
    expect(t.store.instincts.get('pref:use-pnpm-not-npm')?.confidence).toBe(0.5);
    session(t, NPM, 4);
    const three = await runLearn(t.store);
    expect(three.contradictions).toEqual([{ pattern: 'pref:use-pnpm-not-npm', before: 0.5, after: 0.4 }]);
    const row = t.store.instincts.get('pref:use-pnpm-not-npm');
    expect(row?.confidence).toBe(0.4);
    expect(t.store.instincts.events(row?.id ?? 0).filter((e) => e.kind === 'contradiction')).toMatchObject([
      { delta_confidence: -0.1, detail: '3 contradicting sessions' },
    ]);
    // The user's new preference is itself now seen in 3 sessions.
    expect(t.store.instincts.get('pref:use-npm-not-pnpm')?.evidence).toBe(3);
  });

  it('report a pattern contradicted more than once in one run on one line, from where it was to where it is', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PNPM, 2);
    await runLearn(t.store);
    for (let i = 0; i < 6; i++) session(t, NPM, 3);
    const report = await runLearn(t.store);
    const after = t.store.instincts.get('pref:use-pnpm-not-npm')?.confidence;
    expect(after).toBeLessThan(0.4);
    expect(report.contradictions).toEqual([{ pattern: 'pref:use-pnpm-not-npm', before: 0.5, after }]);
    // A run with nothing to learn from keeps the last run's account.
    const account = readFileSync(t.store.paths.lastProcessingLog, 'utf8');
    expect((await runLearn(t.store)).sessions).toBe(0);
    expect(readFileSync(t.store.paths.lastProcessingLog, 'utf8')).toBe(account);
  });

  it('count sessions that edit one file of a learned pair without the other', async () => {
    const t = fresh();
    // Nine sessions together and three apart: still 75% together, so the pair holds and loses confidence.
    for (let i = 0; i < 9; i++) session(t, PAIR);
    await runLearn(t.store);
    const key = 'combo:demo:src/store/migrations.ts+src/store/schema.ts';
    expect(t.store.instincts.get(key)).toBeDefined();
    for (let i = 0; i < 3; i++) session(t, [{ edit: 'src/store/schema.ts' }, { edit: 'README.md' }], 3);
    const report = await runLearn(t.store);
    expect(report.held.map((h) => h.pattern)).not.toContain(key);
    expect(report.contradictions).toHaveLength(1);
    const [c] = report.contradictions;
    expect(c?.pattern).toBe(key);
    expect(c?.after).toBeLessThan(c?.before ?? 0);
  });

  it("say why the files change together in the words of the sessions' commits", async () => {
    const t = fresh();
    const subjects = ['Add the sessions table and its migration', 'Add a column for the agent', 'Index sessions by project'];
    for (const subject of subjects) session(t, [...PAIR, { bash: `git add -A && git commit -m "${subject}"` }]);
    await runLearn(t.store);
    const action = t.store.instincts.get('combo:demo:src/store/migrations.ts+src/store/schema.ts')?.action ?? '';
    expect(action).toMatch(/^Update the other file too: .* The sessions' commits: "/);
    for (const subject of subjects) expect(action).toContain(`"${subject}"`);
  });

  it('forget a pair once it no longer changes together in half the sessions touching either file, saying why', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PAIR);
    await runLearn(t.store);
    const key = 'combo:demo:src/store/migrations.ts+src/store/schema.ts';
    // A session or two editing one file alone does not flip it (3 of 5 together): learned at 75%, kept down to 50%.
    for (let i = 0; i < 2; i++) session(t, [{ edit: 'src/store/schema.ts' }, { edit: 'README.md' }], 3 + i);
    await runLearn(t.store);
    expect(t.store.instincts.get(key)).toBeDefined();
    for (let i = 0; i < 2; i++) session(t, [{ edit: 'src/store/schema.ts' }, { edit: 'README.md' }], 5 + i);
    const report = await runLearn(t.store);
    expect(t.store.instincts.get(key)).toBeUndefined();
    expect(report.held).toContainEqual({
      pattern: key,
      reason: expect.stringMatching(/^forgotten: now edited together in 3 of 7 sessions touching either file \(needs 50%\) to stay$/),
      // In words, for the sync report: which rule it was.
      trigger: expect.stringMatching(/^when editing `src\/store\/migrations\.ts` or `src\/store\/schema\.ts`/),
    });
    // Forgotten, not erased: its history stays, ending in why learning let it go.
    const events = t.store.instincts.forgottenEvents(key);
    expect(events.map((e) => e.kind)).toEqual(['create', 'contradiction', 'forget']);
    expect(JSON.parse(events.at(-1)?.detail ?? '{}')).toMatchObject({ reason: expect.stringMatching(/^forgotten: now edited together/) });
  });

  it('keep a pair the user said is right, however the sessions since went', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PAIR);
    await runLearn(t.store);
    const key = 'combo:demo:src/store/migrations.ts+src/store/schema.ts';
    giveFeedback(t.store, key, 'strong');
    for (let i = 0; i < 2; i++) session(t, [{ edit: 'src/store/schema.ts' }, { edit: 'README.md' }], 3 + i);
    await runLearn(t.store);
    expect(t.store.instincts.get(key)).toBeDefined();
  });
});

describe('a build error fixed the same way in three sessions', () => {
  it('becomes a fix instinct; fixed the same way in two sessions, it does not', async () => {
    const t = fresh();
    const planted: Step[] = [
      { bash: 'go build ./...', error: 'exit 1: cmd/main.go:12:5: undefined: flagParser' },
      { edit: 'cmd/flags.go' },
      { bash: 'go build ./...' },
    ];
    for (let i = 0; i < 2; i++) session(t, planted, 2 + i);
    await runLearn(t.store);
    const sameWay = () => t.store.instincts.list().filter((r) => r.key.startsWith('fix:go-compile-undefined-flagparser'));
    expect(sameWay()).toEqual([]);
    session(t, planted, 4);
    await runLearn(t.store);
    const [fix] = sameWay();
    expect(fix).toMatchObject({ category: 'fix_pattern', evidence: 3, trigger: 'when `go build` fails with "undefined: flagParser"' });
    expect(fix?.action).toMatch(/^Edit `cmd\/flags\.go`/);
  });
});

describe('a lint rule whose failures a pipe hid', () => {
  it('is learned from the findings `lint | tail` printed, once three sessions fixed it', async () => {
    const t = fresh();
    const planted: Step[] = [
      {
        bash: 'mise run lint 2>&1 | tail -20',
        reported: '[lint] cmd/setup.go:88:2: missing cases in switch of type cli.status: cli.statusNone (exhaustive)',
      },
      { edit: 'cmd/setup.go' },
      { bash: 'mise run lint 2>&1 | tail -5' },
    ];
    for (let i = 0; i < 3; i++) session(t, planted, 2 + i);
    await runLearn(t.store);
    const fix = t.store.instincts.list().find((r) => r.key === 'fix:golangci-exhaustive');
    expect(fix).toMatchObject({ category: 'fix_pattern', evidence: 3 });
    expect(fix?.action).toContain('missing cases in switch of type cli.status');
  });
});

describe('what the project already documents', () => {
  /** Three sessions running `mise run test` in a repository whose CLAUDE.md says `claudeMd`: the store and that instinct. */
  const learnIn = async (claudeMd: string) => {
    const repo = tempDir();
    mkdirSync(join(repo.path, '.git'));
    writeFileSync(join(repo.path, 'CLAUDE.md'), claudeMd);
    const t = fresh();
    for (let i = 0; i < 3; i++) {
      const rows = stepRows([{ bash: 'mise run test' }], { sessionId: `doc-${i}`, start: `2026-03-0${i + 2}T10:00:00Z`, cwd: repo.path });
      for (const row of rows) t.store.observations.insert(row);
    }
    await runLearn(t.store);
    repo.cleanup();
    const row = t.store.instincts.list().find((r) => r.key.includes('mise-run-test'));
    return { t, row, metadata: row && parseJsonObject(row.metadata) };
  };

  it('is learned but marked documented, and never shown at session start', async () => {
    const { t, row, metadata } = await learnIn('Run the unit tests with `mise run test`.\n');
    expect(metadata).toMatchObject({ documented: true });
    const start = selectStartInstincts(t.store, { fingerprint: row?.project ?? '', name: 'demo', root: '', remote: null }, []);
    expect(start.shown.map((r) => r.key)).not.toContain(row?.key);
  });

  it('is not what Homunculus itself exported into the file: a rule in its own block stays undocumented', async () => {
    const ours = `# Notes\n\n${MARKER_START}\n- Run the tests with \`mise run test\`. <!-- \`pref:x\` (3) -->\n${MARKER_END}\n`;
    expect((await learnIn(ours)).metadata).toMatchObject({ documented: false });
    expect((await learnIn(`${ours}\nRun the unit tests with \`mise run test\`.\n`)).metadata).toMatchObject({ documented: true });
  });
});

describe('bad input', () => {
  it('skips and counts observations with missing fields or absurd values, and still learns from the rest', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PNPM);
    const insert = rawDatabase(t.store).prepare(
      `INSERT INTO observations (source, session_id, tool_use_id, ts, event, tool, input, files, data, duration_ms) VALUES ('claude-code', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run('s-bad', 'b1', 'not a date', 'tool', 'Bash', 'ls', '[]', '{}', null);
    insert.run('s-bad', 'b2', '2026-03-02T10:00:00Z', 'tool', 'Bash', 'ls', '{oops', '{}', null);
    insert.run('s-bad', 'b3', '2026-03-02T10:00:00Z', 'tool', 'Bash', 'ls', '[]', '[]', null);
    insert.run('s-bad', 'b4', '2026-03-02T10:00:00Z', 'tool', 'Bash', 'ls', '[]', '{}', -40);
    insert.run('s-bad', 'b5', '2999-01-01T00:00:00Z', 'tool', 'Bash', 'ls', '[]', '{}', null);
    insert.run('s-bad', 'b6', '2026-03-02T10:00:00Z', 'tool', '', 'ls', '[]', '{}', null);
    insert.run('', 'b7', '2026-03-02T10:00:00Z', 'tool', 'Bash', 'ls', '[]', '{}', null);
    const report = await runLearn(t.store);
    expect(report.skipped.count).toBe(7);
    expect(report.skipped.reasons).toEqual({
      'unparseable timestamp': 1,
      'files is not a JSON array of strings': 1,
      'data is not a JSON object': 1,
      'absurd duration': 1,
      'timestamp out of range': 1,
      'tool event without a tool name': 1,
      'missing session_id': 1,
    });
    expect(t.store.observations.count({ pendingOnly: true })).toBe(0);
    expect(t.store.instincts.get('pref:use-pnpm-not-npm')?.evidence).toBe(3);
    expect(readFileSync(t.store.paths.lastProcessingLog, 'utf8')).toContain('- absurd duration: 1');
  });
});

describe('crash safety and concurrency', () => {
  it('rolls a failing session back completely and picks it up on the next run', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PNPM);
    rawDatabase(t.store).exec(
      `CREATE TRIGGER boom BEFORE INSERT ON instincts WHEN NEW.key = 'pref:use-pnpm-not-npm' BEGIN SELECT RAISE(ABORT, 'disk on fire'); END;`,
    );
    const failed = await runLearn(t.store);
    expect(failed.errors).toEqual([{ session: 's-' + sessionNo, message: 'disk on fire' }]);
    // The third session left nothing behind: still pending, not counted.
    expect(t.store.observations.count({ pendingOnly: true })).toBe(3);
    expect(
      (rawDatabase(t.store).prepare("SELECT COUNT(*) AS n FROM pattern_sightings WHERE kind = 'pattern'").get() as { n: number }).n,
    ).toBe(2);
    rawDatabase(t.store).exec('DROP TRIGGER boom');
    const resumed = await runLearn(t.store);
    expect(resumed.errors).toEqual([]);
    expect(resumed.created.map((c) => c.pattern)).toEqual(['pref:use-pnpm-not-npm']);
    expect(t.store.instincts.get('pref:use-pnpm-not-npm')?.evidence).toBe(3);
  });

  it('does nothing while another run holds the lock, and loses nothing', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PNPM);
    const release = acquireLock(lockPath(t.store), { staleMs: 60_000 });
    const locked = await runLearn(t.store);
    expect(locked.status).toBe('locked');
    expect(t.store.observations.count({ pendingOnly: true })).toBeGreaterThan(0);
    expect(readFileSync(t.store.paths.observerLog, 'utf8')).toContain('another run holds the lock');
    release?.();
    const done = await runLearn(t.store);
    expect(done.status).toBe('done');
    expect(t.store.observations.count({ pendingOnly: true })).toBe(0);
    expect(existsSync(lockPath(t.store))).toBe(false);
  });

  it('also processes observations that arrive while it runs (a second stop hook found the lock taken)', async () => {
    const t = fresh();
    session(t, PNPM);
    let added = false;
    const latecomer: SessionObserver = {
      name: 'test',
      async extract() {
        if (!added) {
          added = true;
          session(t, PNPM);
          session(t, PNPM);
        }
        return { candidates: [], calls: 0, tokens: 0 };
      },
    };
    const report = await runLearn(t.store, { observer: latecomer });
    expect(report.sessions).toBe(3);
    expect(t.store.observations.count({ pendingOnly: true })).toBe(0);
    expect(t.store.instincts.get('pref:use-pnpm-not-npm')?.evidence).toBe(3);
  });
});

describe('the LLM observer', () => {
  const answer = (patterns: unknown[]) => ({
    content: [{ type: 'text' as const, text: JSON.stringify({ patterns }) }],
    finishReason: { unified: 'stop' as const, raw: 'stop' },
    usage: {
      inputTokens: { total: 900, noCache: 900, cacheRead: 0, cacheWrite: 0 },
      outputTokens: { total: 120, text: 120, reasoning: 0 },
    },
    warnings: [],
  });
  const proposal = {
    pattern: 'pref:demo/release=scripts-release.sh',
    category: 'preference',
    domain: 'tooling',
    title: 'Release with scripts/release.sh',
    trigger: 'when releasing demo',
    action: 'Run `./scripts/release.sh` instead of tagging by hand.',
    evidence: 'The user released with the script.',
    subjects: ['./scripts/release.sh'],
    notable: true,
    project_specific: true,
  };
  const observer = (
    t: TempStore,
    doGenerate: ConstructorParameters<typeof MockLanguageModelV3>[0] extends infer O
      ? O extends { doGenerate?: infer G }
        ? G
        : never
      : never,
  ) =>
    createLlmObserver(
      aiSdkProvider('mock', 'mock-model', new MockLanguageModelV3({ doGenerate })),
      new TokenBudget(t.store.usage, { perRunTokens: 100_000, perDayTokens: 100_000 }, () => t.store.clock.now()),
      {
        maxOutputTokens: 500,
        timeoutMs: 5_000,
      },
    );

  it('adds its proposals to the deterministic candidates, through the same gate and threshold', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PNPM);
    const report = await runLearn(t.store, { observer: observer(t, answer([proposal])) });
    expect(report.llm).toMatchObject({ mode: 'on', provider: 'mock:mock-model', calls: 3, tokens: 3 * 1020, fallbacks: [] });
    expect(
      t.store.instincts
        .list()
        .map((r) => r.key)
        .sort(),
    ).toEqual(['pref:demo/release=scripts-release.sh', 'pref:use-pnpm-not-npm']);
    expect(t.store.usage.tokensSince('')).toBe(3 * 1020);
  });

  it('falls back to the deterministic result when the answer is malformed', async () => {
    const deterministic = fresh();
    const withLlm = fresh();
    for (const t of [deterministic, withLlm]) for (let i = 0; i < 3; i++) session(t, PNPM);
    await runLearn(deterministic.store);
    const bad = { ...answer([]), content: [{ type: 'text' as const, text: '{"patterns": [{"pattern": 42}' }] };
    const report = await runLearn(withLlm.store, { observer: observer(withLlm, bad) });
    expect(report.llm.fallbacks).toHaveLength(3);
    expect(report.errors).toEqual([]);
    const keys = (t: TempStore) => t.store.instincts.list().map((r) => [r.key, r.evidence, r.confidence]);
    expect(keys(withLlm)).toEqual(keys(deterministic));
    expect(readFileSync(withLlm.store.paths.observerLog, 'utf8')).toContain('llm fallback for');
  });

  it('falls back when the model throws', async () => {
    const t = fresh();
    for (let i = 0; i < 3; i++) session(t, PNPM);
    const report = await runLearn(t.store, {
      observer: observer(t, async () => {
        throw new Error('503 overloaded');
      }),
    });
    expect(report.llm.fallbacks.map((f) => f.reason)).toEqual(['503 overloaded', '503 overloaded', '503 overloaded']);
    expect(t.store.instincts.get('pref:use-pnpm-not-npm')?.evidence).toBe(3);
  });
});

describe('session summaries', () => {
  it('get a line saying what the observer learned from them', async () => {
    const t = fresh();
    const ids = [session(t, PNPM), session(t, PNPM), session(t, PNPM)];
    for (const id of ids) rawDatabase(t.store).prepare("INSERT INTO sessions (id, summary) VALUES (?, 'Worked on the installer.')").run(id);
    await runLearn(t.store);
    const summary = (id: string) =>
      (rawDatabase(t.store).prepare('SELECT summary FROM sessions WHERE id = ?').get(id) as { summary: string }).summary;
    expect(summary(ids[0] as string)).toBe('Worked on the installer.\nNoted "Use pnpm, not npm".');
    expect(summary(ids[2] as string)).toBe('Worked on the installer.\nLearned "Use pnpm, not npm".');
    await runLearn(t.store);
    expect(summary(ids[2] as string)).toBe('Worked on the installer.\nLearned "Use pnpm, not npm".');
  });
});

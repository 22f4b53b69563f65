/** The graph and context commands through the built binary. */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { runCli, runCliJson } from '../test-support/run-cli.js';
import { openStore } from '../store/store.js';

let home: ReturnType<typeof tempDir>;
beforeEach(() => (home = tempDir()));
afterEach(() => home.cleanup());

const at = (iso: string) => ({ HOMUNCULUS_NOW: iso });
type Fact = {
  id: number;
  description: string;
  expired_reason: string | null;
  superseded_by: number | null;
  history: unknown[];
  reconsolidation_count: number;
};

describe('homunculus graph', () => {
  it('has --help for every subcommand and for context', async () => {
    for (const sub of [
      'add',
      'facts',
      'show',
      'timeline',
      'supersede',
      'reconsolidate',
      'entities',
      'build',
      'dream',
      'communities',
      'gc',
    ]) {
      const r = await runCli(home.path, ['graph', sub, '--help']);
      expect(r.status, sub).toBe(0);
      expect(r.stdout).toMatch(/Usage: homunculus graph/);
    }
    expect((await runCli(home.path, ['context', '--help'])).stdout).toMatch(/Usage: homunculus context/);
    expect((await runCli(home.path, ['stats', '--help'])).stdout).toContain('--graph');
  });

  it('adds, supersedes, travels in time and reconsolidates', async () => {
    const first = await runCliJson<{ action: string; fact: Fact }>(
      home.path,
      [
        'graph',
        'add',
        'shop',
        'uses',
        'fixed expiry',
        '--source-type',
        'project',
        '--description',
        'shop memory expiration policy is a fixed 30-day expiration',
      ],
      at('2026-01-01T00:00:00Z'),
    );
    expect(first.action).toBe('created');
    const second = await runCliJson<{ action: string; fact: Fact; superseded: number[] }>(
      home.path,
      ['graph', 'add', 'shop', 'uses', 'act-r', '--description', 'shop memory expiration policy is now the ACT-R model'],
      at('2026-01-15T00:00:00Z'),
    );
    expect(second).toMatchObject({ action: 'superseded', superseded: [first.fact.id] });
    const env = at('2026-01-20T00:00:00Z');
    expect((await runCliJson<{ facts: Fact[] }>(home.path, ['graph', 'facts'], env)).facts.map((f) => f.id)).toEqual([second.fact.id]);
    expect((await runCliJson<{ facts: Fact[] }>(home.path, ['graph', 'facts', '--at', '2026-01-10'], env)).facts.map((f) => f.id)).toEqual([
      first.fact.id,
    ]);
    expect(
      (await runCliJson<{ facts: Fact[] }>(home.path, ['graph', 'facts', '--known-at', '2026-01-10'], env)).facts.map((f) => f.id),
    ).toEqual([first.fact.id]);
    expect((await runCliJson<{ facts: Fact[] }>(home.path, ['graph', 'timeline', 'shop'], env)).facts).toHaveLength(2);
    expect(await runCliJson<Fact>(home.path, ['graph', 'show', String(first.fact.id)], env)).toMatchObject({
      expired_reason: 'superseded',
      superseded_by: second.fact.id,
    });

    const r = await runCliJson<Fact>(
      home.path,
      [
        'graph',
        'reconsolidate',
        String(second.fact.id),
        '--description',
        'shop memory expiration policy is now the ACT-R activation model with emotional weights',
      ],
      env,
    );
    expect(r).toMatchObject({ reconsolidation_count: 1 });
    expect(r.history).toHaveLength(1);

    const closed = await runCliJson<{ superseded: Fact; replacement: { fact: Fact } }>(
      home.path,
      ['graph', 'supersede', String(second.fact.id), '--description', 'shop keeps every memory forever'],
      env,
    );
    expect(closed.superseded).toMatchObject({ expired_reason: 'superseded', superseded_by: closed.replacement.fact.id });
    const again = await runCli(home.path, ['graph', 'supersede', String(second.fact.id)], { env });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/no longer current[\s\S]*replacement is fact/);
  });

  it('refuses a transcript that is a named pipe instead of waiting on it forever', async () => {
    const fifo = join(home.path, 'pipe.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const r = await runCli(home.path, ['graph', 'build', '--session', 'x', '--transcript', fifo]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/pipe\.jsonl is a named pipe \(FIFO\), not a regular file[\s\S]*fix: .*Claude Code transcript/);
  }, 10_000);

  it('rejects bad input with exit 2 and a fix, and leaves the graph untouched', async () => {
    await runCliJson(home.path, ['graph', 'add', 'shop', 'uses', 'zod', '--description', 'shop validates with zod']);
    const cases: [string[], RegExp][] = [
      [
        ['graph', 'add', 'a', 'teleports', 'b', '--description', 'x'],
        /<relation> must be one of the \d+ relations: has_component, [\s\S]*got "teleports"/,
      ],
      [['graph', 'add', 'a', 'uses', 'b'], /required option '--description <text>'/],
      [['graph', 'add', 'a', 'uses', 'b', '--description', 'x', '--confidence', '2'], /--confidence must be a number between 0 and 1/],
      [['graph', 'add', 'a', 'uses', 'b', '--description', 'x', '--valid-at', 'tuesday'], /--valid-at must be an ISO-8601 date or instant/],
      [['graph', 'add', 'a', 'uses', 'b', '--description', 'x', '--source-type', 'planet'], /--source-type must be one of project, /],
      [['graph', 'facts', '--at', 'yesterday'], /--at must be an ISO-8601 date/],
      [['graph', 'facts', '--relation', 'nope'], /--relation must be one of/],
      [['graph', 'show', 'abc'], /<id> must be a whole number/],
      [['graph', 'supersede', '1', '--target', 'x'], /--description is needed for a replacement: say what is true now/],
      [['graph', 'reconsolidate', '1'], /Nothing to reconsolidate/],
      [
        ['graph', 'invalidate', '1', '--invalid-at', '2000-01-01'],
        /--invalid-at 2000-01-01T00:00:00.000Z is before fact 1 became true \(valid_at /,
      ],
      [
        ['graph', 'supersede', '1', '--invalid-at', '1990-01-01', '--valid-at', '2100-01-01', '--description', 'weird'],
        /--invalid-at 1990-01-01T00:00:00.000Z is before fact 1 became true/,
      ],
      [['context', '  '], /<prompt...> is empty/],
      [['context', 'hi', '--used', '150'], /--used must be a percentage between 0 and 100/],
      [['context', 'hi', '--project', 'nowhere'], /Unknown project "nowhere"/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(home.path, args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    expect((await runCliJson<{ count: number }>(home.path, ['graph', 'facts'])).count).toBe(1);
    expect((await runCli(home.path, ['graph', 'facts', '--entity', 'ghost'])).status).toBe(1);
  });

  it('supersede warns when the description alone replaces a fact yet never names the target it keeps', async () => {
    const add = await runCliJson<{ fact: Fact }>(home.path, [
      'graph',
      'add',
      'shop',
      'uses',
      'Prisma',
      '--description',
      'shop uses Prisma as its ORM',
    ]);
    const kept = await runCli(home.path, ['graph', 'supersede', String(add.fact.id), '--description', 'shop uses Drizzle as its ORM']);
    expect(kept.status, kept.stderr).toBe(0);
    expect(kept.stderr).toMatch(/keeps the target "Prisma", which its description does not name: give the new target \(--target\)/);
    const id = (await runCliJson<{ facts: Fact[] }>(home.path, ['graph', 'facts'])).facts[0]?.id ?? 0;
    const named = await runCli(home.path, [
      'graph',
      'supersede',
      String(id),
      '--target',
      'Kysely',
      '--description',
      'shop uses Kysely as its ORM',
    ]);
    expect(named.status, named.stderr).toBe(0);
    expect(named.stderr).not.toMatch(/keeps the target/);
  });

  it('graph facts says when --limit cut the list', async () => {
    for (const [app, lib] of [
      ['web', 'react'],
      ['api', 'fastify'],
      ['cli', 'commander'],
    ] as const) {
      const add = await runCli(home.path, ['graph', 'add', app, 'uses', lib, '--description', `${app} is built on ${lib}`]);
      expect(add.status, add.stderr).toBe(0);
    }
    const cut = await runCli(home.path, ['graph', 'facts', '--limit', '2']);
    expect(cut.stdout).toMatch(/^2 of 3 shown; --limit N for more$/m);
    expect(await runCliJson<{ count: number; total: number }>(home.path, ['graph', 'facts', '--limit', '2'])).toMatchObject({
      count: 2,
      total: 3,
    });
    expect((await runCli(home.path, ['graph', 'facts', '--limit', '3'])).stdout).not.toMatch(/shown/);
  });

  it('builds from a session, answers a prompt by budget level, and reports health', async () => {
    const store = openStore({ home: home.path });
    const obs = (i: number, o: Record<string, unknown>) =>
      store.observations.insert({
        source: 'claude-code',
        session_id: 's1',
        tool_use_id: `t${i}`,
        ts: `2026-02-01T10:00:0${i}Z`,
        project: 'abcdef0123456789',
        cwd: home.path,
        data: { project_name: 'shop' },
        ...o,
      });
    obs(1, { event: 'prompt', input: 'Never use default exports.' });
    obs(2, {
      tool: 'Bash',
      input: 'npm test',
      outcome: 'error',
      error: 'TypeError: cart is undefined',
      data: { project_name: 'shop', base_command: 'npm test' },
    });
    obs(3, { tool: 'Edit', input: `${home.path}/src/cart.ts`, files: [`${home.path}/src/cart.ts`] });
    obs(4, { tool: 'Bash', input: 'npm test', data: { project_name: 'shop', base_command: 'npm test' } });
    store.close();
    const env = at('2026-02-01T12:00:00Z');
    const built = await runCliJson<{ build: { actions: { created: number }; source: string }; gc: { ran: boolean } }>(
      home.path,
      ['graph', 'build', '--session', 's1', '--no-gc'],
      env,
    );
    expect(built.build.source).toBe('observations');
    expect(built.build.actions.created).toBeGreaterThanOrEqual(4);
    expect(built.gc).toBeUndefined();

    const ctx = await runCliJson<{ level: string; task: string; text: string; facts: number[] }>(
      home.path,
      ['context', 'npm test fails: cart is undefined', '--project', 'shop'],
      env,
    );
    expect(ctx).toMatchObject({ level: 'full', task: 'bugfix' });
    expect(ctx.text).toMatch(/When npm test fails with "TypeError: cart is undefined" → edit src\/cart\.ts/);
    const human = await runCli(home.path, ['context', 'npm', 'test', 'fails', '--project', 'abcdef0123456789', '--used', '85'], { env });
    expect(human.stdout).toContain('(nothing to inject at the minimal level)');

    const stats = await runCliJson<{ facts: { current: number }; retrieval_hit_rate: number; healthy: Record<string, boolean> }>(
      home.path,
      ['stats', '--graph'],
      env,
    );
    expect(stats.facts.current).toBeGreaterThan(3);
    expect(stats.retrieval_hit_rate).toBeGreaterThan(0);
    expect((await runCli(home.path, ['stats', '--graph'], { env })).stdout).toMatch(/dedup ratio\s+0 /);

    expect((await runCliJson<{ ran: boolean }>(home.path, ['graph', 'gc'], env)).ran).toBe(true);
    expect((await runCli(home.path, ['graph', 'gc'], { env })).stdout).toMatch(/GC skipped: last run/);
    expect(await runCliJson<{ ran: boolean; reason: string }>(home.path, ['graph', 'dream'], env)).toMatchObject({ ran: false });
    expect((await runCliJson<{ count: number }>(home.path, ['graph', 'communities'], env)).count).toBeGreaterThan(0);
    expect((await runCliJson<{ count: number }>(home.path, ['graph', 'entities', '--type', 'project'], env)).count).toBe(1);
  });
});

describe('homunculus graph build', () => {
  it('refuses a transcript that is not there, rather than saying nothing was recorded', async () => {
    const missing = `${home.path}/nowhere.jsonl`;
    const r = await runCli(home.path, ['graph', 'build', '--session', 'nonexistent', '--transcript', missing]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`No such transcript: ${missing}`);
    expect(r.stdout).not.toMatch(/Nothing recorded/);
  });
});

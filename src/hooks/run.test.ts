/** The hooks' behaviour end to end in process: spool and drain, sessions, context, recall, learning start. */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock } from '../core/lock.js';
import { detectProject } from '../core/project.js';
import { observe } from '../learn/instincts.js';
import type { Store } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { withHomeStore } from '../test-support/store.js';
import { runHook } from './run.js';

let dir: { path: string; cleanup: () => void };
let home: string;
let project: string;
const at = (minute: number): string => new Date(Date.UTC(2026, 1, 1, 10, minute)).toISOString();
// The hooks' clock: instincts created "now" by the test keep their score.
const env = { HOMUNCULUS_NO_LEARN: '1', HOMUNCULUS_NOW: at(30) } as NodeJS.ProcessEnv;
beforeEach(() => {
  dir = tempDir('hom-handler-');
  home = join(dir.path, 'home');
  project = join(dir.path, 'webapp');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ devDependencies: { vitest: '4' } }));
});
afterEach(() => dir.cleanup());

const claude = (payload: Record<string, unknown>): string =>
  JSON.stringify({ session_id: 's1', cwd: project, transcript_path: '/t.jsonl', ...payload });
const edit = (id: string, file: string, minute: number, session = 's1'): string =>
  claude({
    session_id: session,
    hook_event_name: 'PostToolUse',
    tool_name: 'Edit',
    tool_input: { file_path: file, old_string: 'a', new_string: 'b' },
    tool_response: {},
    tool_use_id: id,
    timestamp: at(minute),
  });
const context = (stdout: string): string =>
  stdout ? (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : '';

const withStore = <T>(fn: (store: Store) => T): T => withHomeStore(home, at(0), fn);

describe('observe and stop', () => {
  it('spools observations, and stop drains them into the store and writes the session summary once per session', async () => {
    const bash = claude({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'npm test', description: 'Run tests' },
      tool_response: { stdout: 'ok' },
      tool_use_id: 'b1',
      timestamp: at(1),
    });
    expect((await runHook('observe', bash, { home, env })).status).toBe('spooled');
    expect((await runHook('observe', bash, { home, env })).status).toBe('spooled');
    expect(
      (
        await runHook(
          'observe',
          claude({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'git status' }, tool_use_id: 'b2' }),
          { home, env },
        )
      ).status,
    ).toBe('noise');
    await runHook('observe', edit('e1', 'src/app.ts', 2), { home, env });
    expect(readdirSync(join(home, 'spool'))).toHaveLength(3);

    const stop = await runHook('stop', claude({ hook_event_name: 'Stop', timestamp: at(3) }), { home, env });
    expect(stop).toMatchObject({ status: 'done', stdout: '' });
    expect(readdirSync(join(home, 'spool'))).toEqual([]);
    await runHook('stop', claude({ hook_event_name: 'SessionEnd', reason: 'exit', timestamp: at(4) }), { home, env });

    withStore((store) => {
      const rows = store.observations.forSession('s1').map(({ tool_use_id, event, tool }) => ({ tool_use_id, event, tool }));
      expect(store.observations.count()).toBe(rows.length);
      expect(rows).toEqual([
        { tool_use_id: 'b1', event: 'tool', tool: 'Bash' },
        { tool_use_id: 'e1', event: 'tool', tool: 'Edit' },
        { tool_use_id: 'session_end', event: 'session_end', tool: '' },
      ]);
      expect(store.identity.read().session_count).toBe(1);
      const session = store.sessions.get('s1');
      expect(session).toMatchObject({
        id: 's1',
        project_name: 'webapp',
        cwd: project,
        tools_used: '["Bash","Edit"]',
        files_touched: JSON.stringify([join(project, 'src/app.ts')]),
      });
      const md = readFileSync(join(store.paths.sessions, session?.file_name as string), 'utf8');
      expect(md).toMatch(/^---\ndate: 2026-02-01T10:01:00.000Z\n/);
      expect(md).toContain('session_id: s1');
      expect(md).toContain('## Files touched\n\n- src/app.ts');
      expect(md).toContain('- Bash: 1');
    });
  });

  it('takes the set clock (HOMUNCULUS_NOW) over a later time the agent stamped, which learning would skip as a day to come', async () => {
    // Gemini CLI stamps its payloads with the real time; the clock is set to a day months before.
    const stamped = (id: string, timestamp: string) =>
      claude({
        hook_event_name: 'AfterTool',
        tool_name: 'run_shell_command',
        tool_input: { command: 'pnpm lint' },
        tool_use_id: id,
        timestamp,
      });
    await runHook('observe', stamped('g1', '2026-11-27T12:00:00.000Z'), { home, env });
    await runHook('observe', stamped('g2', at(5)), { home, env });
    await runHook('stop', claude({ hook_event_name: 'Stop' }), { home, env });
    withStore((store) =>
      expect(
        store.observations
          .forSession('s1')
          .filter((o) => o.event === 'tool')
          .map((o) => [o.tool_use_id, o.ts]),
      ).toEqual([
        ['g2', at(5)],
        ['g1', at(30)],
      ]),
    );
  });

  it('threads a later session of the same project to the previous one', async () => {
    await runHook('observe', edit('e1', 'a.ts', 1), { home, env });
    await runHook('stop', claude({ hook_event_name: 'SessionEnd', timestamp: at(2) }), { home, env });
    await runHook('observe', edit('e2', 'b.ts', 10, 's2'), { home, env });
    await runHook('stop', claude({ session_id: 's2', hook_event_name: 'SessionEnd', timestamp: at(11) }), { home, env });
    withStore((store) => {
      const s2 = store.sessions.get('s2');
      const s1 = store.sessions.get('s1');
      expect(s2?.continues_from).toBe('s1');
      expect(readFileSync(join(store.paths.sessions, s2?.file_name as string), 'utf8')).toContain(`continues_from: ${s1?.file_name}`);
      expect(store.identity.read().session_count).toBe(2);
    });
  });

  it('starts the learning run detached, not while a run holds the observer lock, and at most every few minutes per turn', async () => {
    await runHook('observe', edit('e1', 'a.ts', 1), { home, env });
    const learnEnv = { PATH: process.env.PATH } as NodeJS.ProcessEnv;
    const release = acquireLock(join(home, 'locks', 'observer.lock'), { staleMs: 60_000 });
    const held = await runHook('stop', claude({ hook_event_name: 'SessionEnd', timestamp: at(2) }), { home, env: learnEnv });
    expect(held.detail).toMatch(/learn running/);
    release?.();
    const first = await runHook('stop', claude({ hook_event_name: 'SessionEnd', timestamp: at(2) }), { home, env: learnEnv });
    expect(first.detail).toMatch(/learn started/);
    expect(readFileSync(join(home, 'locks', 'learn.last'), 'utf8')).toMatch(/^\d+\n$/);
    await runHook('observe', edit('e2', 'b.ts', 3), { home, env });
    const second = await runHook('stop', claude({ hook_event_name: 'Stop', timestamp: at(4) }), { home, env: learnEnv });
    expect(second.detail).toMatch(/learn throttled/);
  });
});

describe('context hooks', () => {
  it('start: convictions first, then instincts in plain words (preferences first, no keys), and a pointer', async () => {
    withStore((store) => {
      observe(store, {
        pattern: 'seq:test-after-edit',
        trigger: 'after editing a source file',
        action: 'run npm test',
        occurrences: 3,
      });
      observe(store, { pattern: 'pref:pkg=pnpm', trigger: 'when installing packages', action: 'use pnpm' });
      observe(store, { pattern: 'pref:conc=test', occurrences: 102 });
      const promoted = observe(store, {
        pattern: 'fix:lint-before-commit',
        trigger: 'before committing',
        action: 'run the linter first',
        initialScore: 0.9,
      });
      const id = store.instincts.get(promoted.pattern)?.id as number;
      store.instincts.addConviction(id, 'Lint before commit', 'Run the linter before every commit.', at(0));
      store.instincts.update(id, { promoted_at: at(0) });
    });
    await runHook('observe', edit('e1', 'a.ts', 1), { home, env });
    const out = await runHook('start', claude({ hook_event_name: 'SessionStart', source: 'startup' }), { home, env });
    const text = context(out.stdout);
    expect(JSON.parse(out.stdout).hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(text.indexOf('Lint before commit')).toBeGreaterThan(0);
    expect(text.indexOf('Lint before commit')).toBeLessThan(text.indexOf('After editing a source file'));
    expect(text).toContain('- After editing a source file: run npm test (seen 3 times)');
    // A preference comes before a sequence, whatever their confidence.
    expect(text.indexOf('- When installing packages: use pnpm')).toBeLessThan(text.indexOf('After editing a source file'));
    expect(text).not.toMatch(/seq:|pref:|fix:/);
    // The promoted instinct is shown once, as its conviction.
    expect(text).not.toContain('Before committing');
    // What waits for learning is the user's business, not the agent's.
    expect(text).not.toMatch(/observations? (is|are) waiting/);
    expect(text).toContain(join(home, 'instincts', 'personal'));
    expect(text).toContain('(javascript, node, vitest)');
    // An instinct that holds nothing but its key tells an agent nothing: it is not given.
    expect(text).not.toContain('conc=test');
    // A resumed conversation holds that block already: nothing is added twice.
    const resumed = await runHook('start', claude({ hook_event_name: 'SessionStart', source: 'resume' }), { home, env });
    expect(resumed.stdout).toBe('');
  });

  it("start: leaves out what the agent already reads in the project's rule file (CLAUDE.md for Claude Code, AGENTS.md for Codex)", async () => {
    withStore((store) => {
      observe(store, { pattern: 'pref:pkg=pnpm', trigger: 'when installing packages', action: 'use pnpm', occurrences: 3 });
      observe(store, { pattern: 'pref:fmt=prettier', trigger: 'when formatting', action: 'run prettier', occurrences: 3 });
    });
    writeFileSync(
      join(project, 'CLAUDE.md'),
      '# Notes\n<!-- instinct:start -->\n- When installing packages: use pnpm. <!-- `pref:pkg=pnpm` (3) -->\n<!-- instinct:end -->\n',
    );
    const start = async (agent?: 'codex') =>
      context((await runHook('start', claude({ hook_event_name: 'SessionStart' }), { home, env, ...(agent ? { agent } : {}) })).stdout);
    const claudeCode = await start();
    expect(claudeCode).not.toContain('use pnpm');
    expect(claudeCode).toContain('run prettier');
    // Codex reads AGENTS.md, not CLAUDE.md: it is given the rule.
    expect(await start('codex')).toContain('use pnpm');
    // Nor does a prompt give it again.
    const prompt = async (agent?: 'codex') =>
      context(
        (
          await runHook(
            'prompt',
            claude({ session_id: `p-${agent ?? 'claude'}`, hook_event_name: 'UserPromptSubmit', prompt: 'installing packages now' }),
            {
              home,
              env,
              ...(agent ? { agent } : {}),
            },
          )
        ).stdout,
      );
    expect(await prompt()).not.toContain('use pnpm');
    expect(await prompt('codex')).toContain('use pnpm');
  });

  it('gemini: the start block is given after the first prompt (a resume keeps it there), once, and not repeated by the prompt', async () => {
    withStore(
      (store) => void observe(store, { pattern: 'pref:pkg=pnpm', trigger: 'when installing packages', action: 'use pnpm', occurrences: 3 }),
    );
    const gemini = (payload: Record<string, unknown>) => JSON.stringify({ session_id: 'g9', cwd: project, ...payload });
    const start = await runHook('start', gemini({ hook_event_name: 'SessionStart', source: 'startup' }), { home, env, agent: 'gemini' });
    expect(start.stdout).toBe('{}');
    const payload = gemini({ hook_event_name: 'BeforeAgent', prompt: 'installing packages now' });
    const prompt = async () => (await runHook('prompt', payload, { home, env, agent: 'gemini' })).stdout;
    const first = context(await prompt());
    expect(first.match(/use pnpm/g)).toHaveLength(1);
    expect(first).toContain('Learned from how this user works');
    expect(await prompt()).toBe('{}');
  });

  it('start: above 30 instincts shows 10 lines of the 15 ranked for the project, under 10,000 characters', async () => {
    withStore((store) => {
      for (let i = 0; i < 60; i++)
        observe(store, { pattern: `seq:generic-${i}`, trigger: `when doing generic thing number ${i} ${'with words '.repeat(20)}` });
      observe(store, { pattern: 'seq:vitest-watch', trigger: 'when running vitest use run mode', initialScore: 0.3 });
    });
    const text = context((await runHook('start', claude({ hook_event_name: 'SessionStart' }), { home, env })).stdout);
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text.match(/^- When /gm)).toHaveLength(10);
    expect(text).toContain('When running vitest use run mode');
    expect(text).toMatch(/10 of 61 instincts shown, those about javascript, node, vitest first/);
  });

  it('start: the last session is the last one that did something, not a `claude mcp list` that only started and ended', async () => {
    withStore((store) => observe(store, { pattern: 'pref:pkg=pnpm', trigger: 'when installing packages', action: 'use pnpm' }));
    await runHook('observe', edit('e1', 'a.ts', 1), { home, env });
    await runHook('stop', claude({ hook_event_name: 'SessionEnd', timestamp: at(2) }), { home, env });
    for (const [event, minute] of [
      ['SessionStart', 5],
      ['SessionEnd', 6],
    ] as const)
      await runHook(
        event === 'SessionStart' ? 'start' : 'stop',
        claude({ session_id: 'mcp', hook_event_name: event, timestamp: at(minute) }),
        {
          home,
          env,
        },
      );
    const text = context(
      (await runHook('start', claude({ session_id: 's3', hook_event_name: 'SessionStart', timestamp: at(9) }), { home, env })).stdout,
    );
    expect(text).toMatch(/^Last session \(2026-02-01\): 1 file changed/m);
    expect(text).not.toContain('0 files changed');
  });

  it('start: says nothing when nothing has been learned', async () => {
    expect((await runHook('start', claude({ hook_event_name: 'SessionStart' }), { home, env })).stdout).toBe('');
  });

  it('prompt: injects only instincts that clear the relevance bar, with their action', async () => {
    withStore((store) => {
      observe(store, {
        pattern: 'fix:flaky-integration-tests',
        trigger: 'when integration tests fail with a timeout',
        action: 'rerun with -race and a longer timeout',
        occurrences: 3,
      });
      observe(store, { pattern: 'pref:commit-style', trigger: 'when writing commit messages', action: 'use the imperative mood' });
    });
    const hit = context(
      (
        await runHook(
          'prompt',
          claude({ hook_event_name: 'UserPromptSubmit', prompt: 'the integration tests fail with a timeout again, can you look?' }),
          { home, env },
        )
      ).stdout,
    );
    expect(hit).toContain('rerun with -race and a longer timeout');
    expect(hit).not.toContain('imperative');
    const miss = await runHook('prompt', claude({ hook_event_name: 'UserPromptSubmit', prompt: 'what does this function return?' }), {
      home,
      env,
    });
    expect(miss.stdout).toBe('');
    expect((await runHook('prompt', claude({ hook_event_name: 'UserPromptSubmit', prompt: 'yes' }), { home, env })).stdout).toBe('');
    withStore((store) => expect(store.observations.forSession('s1').filter((o) => o.event === 'prompt')).toHaveLength(3));
  });

  it('recall: names earlier sessions that touched the edited file, once per file per session', async () => {
    await runHook('observe', edit('e1', 'src/config.ts', 1), { home, env });
    await runHook('stop', claude({ hook_event_name: 'SessionEnd', timestamp: at(2) }), { home, env });
    const first = await runHook('recall', edit('e2', 'src/config.ts', 10, 's2'), { home, env });
    const text = context(first.stdout);
    expect(text).toMatch(/<homunculus-memory-[0-9a-f]{16}>\n\[RECALL\] Earlier work on src\/config\.ts/);
    expect(text).toContain('2026-02-01 session (webapp)');
    const again = await runHook('recall', edit('e3', 'src/config.ts', 11, 's2'), { home, env });
    expect(again.stdout).toBe('');
    expect((await runHook('recall', edit('e4', 'src/other.ts', 12, 's2'), { home, env })).stdout).toBe('');
  });

  it('stop: a session that ends with nothing recorded leaves no trace (`claude mcp list` fires SessionEnd alone)', async () => {
    const end = await runHook('stop', claude({ session_id: 'lone', hook_event_name: 'SessionEnd', timestamp: at(5) }), { home, env });
    expect(end.detail).toMatch(/^no observations/);
    withStore((store) => {
      expect(store.observations.forSession('lone')).toEqual([]);
      expect(store.sessions.get('lone')).toBeUndefined();
    });
    expect(existsSync(join(home, 'sessions')) ? readdirSync(join(home, 'sessions')).filter((f) => f.includes('lone')) : []).toEqual([]);
  });

  it('recall: gives nothing the session already holds, from its start or an earlier recall', async () => {
    const [cart, price] = [join(project, 'src/cart.ts'), join(project, 'src/price.ts')];
    await runHook('observe', edit('e1', cart, 1), { home, env });
    await runHook('observe', edit('e2', price, 2), { home, env });
    await runHook('stop', claude({ hook_event_name: 'SessionEnd', timestamp: at(3) }), { home, env });
    withStore((store) =>
      observe(store, {
        pattern: 'combo:webapp:cart+price',
        category: 'combo',
        project: detectProject(project).fingerprint,
        trigger: 'when editing `src/cart.ts` or `src/price.ts`',
        action: 'update the other file too',
        occurrences: 8,
      }),
    );
    const start = context(
      (await runHook('start', claude({ session_id: 's2', hook_event_name: 'SessionStart', source: 'startup' }), { home, env })).stdout,
    );
    expect(start).toContain('update the other file too');
    // The rule is in the session already; the earlier session is listed once, on the first file.
    const first = context((await runHook('recall', edit('e3', cart, 10, 's2'), { home, env })).stdout);
    expect(first).toContain('2026-02-01 session (webapp)');
    expect(first).not.toContain('update the other file too');
    expect((await runHook('recall', edit('e4', price, 11, 's2'), { home, env })).stdout).toBe('');
    // Another session, with no start on record, is given both, once.
    const other = context((await runHook('recall', edit('e5', price, 12, 's3'), { home, env })).stdout);
    expect(other).toContain('update the other file too');
    expect(other.match(/2026-02-01 session \(webapp\)/g)).toHaveLength(1);
    expect((await runHook('recall', edit('e6', cart, 13, 's3'), { home, env })).stdout).toBe('');
  });

  it('recall: reading the file first does not count as recall given (Claude Code reads every file before editing it)', async () => {
    await runHook('observe', edit('e1', 'src/config.ts', 1), { home, env });
    await runHook('stop', claude({ hook_event_name: 'SessionEnd', timestamp: at(2) }), { home, env });
    const read = claude({
      session_id: 's2',
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: 'src/config.ts' },
      tool_response: {},
      tool_use_id: 'r1',
      timestamp: at(9),
    });
    await runHook('observe', read, { home, env });
    const first = await runHook('recall', edit('e2', 'src/config.ts', 10, 's2'), { home, env });
    expect(context(first.stdout)).toContain('[RECALL] Earlier work on src/config.ts');
    withStore((store) => expect(store.observations.forSession('s2').map((o) => o.tool)).toEqual(['Read', 'Edit']));
  });
});

describe('other agents', () => {
  it('gemini: AfterTool observations are recorded as gemini, context in its format, {} otherwise', async () => {
    const after = JSON.stringify({
      session_id: 'g1',
      cwd: project,
      hook_event_name: 'AfterTool',
      timestamp: at(1),
      tool_name: 'run_shell_command',
      tool_input: { command: 'pytest -x' },
      tool_response: { llmContent: 'ok' },
    });
    const o = await runHook('observe', after, { home, env, agent: 'gemini' });
    expect(o).toMatchObject({ status: 'spooled', stdout: '{}' });
    expect((await runHook('observe', after, { home, env })).status).toBe('spooled');
    await runHook('stop', JSON.stringify({ session_id: 'g1', cwd: project, hook_event_name: 'SessionEnd', timestamp: at(2) }), {
      home,
      env,
      agent: 'gemini',
    });
    withStore((store) => {
      const rows = store.observations.forSession('g1');
      expect(store.observations.count()).toBe(rows.length);
      const tools = rows.filter((o) => o.event === 'tool');
      expect(tools.map(({ source, tool, input }) => ({ source, tool, input }))).toEqual([
        { source: 'gemini', tool: 'run_shell_command', input: 'pytest -x' },
      ]);
    });
    withStore(
      (store) =>
        void observe(store, {
          pattern: 'seq:pytest-first',
          trigger: 'when pytest fails run it with -x',
          action: 'stop at the first failure',
        }),
    );
    const prompt = await runHook(
      'prompt',
      JSON.stringify({ session_id: 'g1', cwd: project, hook_event_name: 'BeforeAgent', prompt: 'pytest fails on the parser' }),
      { home, env },
    );
    expect(JSON.parse(prompt.stdout).hookSpecificOutput.hookEventName).toBe('BeforeAgent');
  });

  it('cursor: shell and edit events become observations keyed by conversation, answers are JSON', async () => {
    const base = { conversation_id: 'c1', generation_id: 'g1', workspace_roots: [project] };
    const shell = await runHook(
      'observe',
      JSON.stringify({ ...base, hook_event_name: 'afterShellExecution', command: 'cargo build', output: 'ok', duration: 1200 }),
      { home, env },
    );
    expect(shell).toMatchObject({ status: 'spooled', stdout: '{}' });
    await runHook(
      'observe',
      JSON.stringify({
        ...base,
        hook_event_name: 'afterFileEdit',
        file_path: join(project, 'src/main.rs'),
        edits: [{ old_string: 'a', new_string: 'b' }],
      }),
      { home, env },
    );
    const prompt = await runHook('prompt', JSON.stringify({ ...base, hook_event_name: 'beforeSubmitPrompt', prompt: 'hello' }), {
      home,
      env,
    });
    expect(JSON.parse(prompt.stdout)).toEqual({ continue: true });
    await runHook('stop', JSON.stringify({ ...base, hook_event_name: 'stop', status: 'completed' }), { home, env });
    withStore((store) => {
      // Every observation belongs to the conversation.
      expect(store.observations.count()).toBe(store.observations.forSession('c1').length);
      expect(
        store.observations
          .forSession('c1')
          .filter((o) => o.event === 'tool')
          .map(({ source, session_id, tool, input, duration_ms }) => ({ source, session_id, tool, input, duration_ms }))
          .sort((a, b) => a.tool.localeCompare(b.tool)),
      ).toEqual([
        { source: 'cursor', session_id: 'c1', tool: 'Edit', input: join(project, 'src/main.rs'), duration_ms: null },
        { source: 'cursor', session_id: 'c1', tool: 'Shell', input: 'cargo build', duration_ms: 1200 },
      ]);
    });
  });
});

describe('Codex patches', () => {
  it('at Stop, records a patch the model ran through the shell as the last act of its turn (no later hook saw it), once', async () => {
    const item = (i: Record<string, unknown>) => JSON.stringify({ type: 'event_msg', payload: { type: 'item_completed', item: i } });
    const rollout = join(dir.path, 'rollout.jsonl');
    writeFileSync(
      rollout,
      [
        item({ type: 'UserMessage', id: 'u1', content: [] }),
        item({ type: 'CommandExecution', id: 'c1', command: ['/bin/bash', '-lc', 'pnpm lint'], status: 'failed', exit_code: 1 }),
        item({ type: 'FileChange', id: 'p1', changes: { [join(project, 'src/a.ts')]: {} }, status: 'completed', stdout: 'Success.' }),
        item({ type: 'AgentMessage', id: 'm1', text: 'Fixed.' }),
        '',
      ].join('\n'),
    );
    const codex = (payload: Record<string, unknown>) => claude({ session_id: 'x1', transcript_path: rollout, ...payload });
    const lint = codex({
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'pnpm lint' },
      tool_response: '',
      tool_use_id: 'c1',
    });
    // Codex payloads carry no time: the hooks' clock gives each its own.
    await runHook('PostToolUse', lint, { home, env: { ...env, HOMUNCULUS_NOW: at(5) }, agent: 'codex' });
    const stop = codex({ hook_event_name: 'Stop', turn_id: 't1', last_assistant_message: 'Fixed.' });
    for (const minute of [6, 7]) await runHook('Stop', stop, { home, env: { ...env, HOMUNCULUS_NOW: at(minute) }, agent: 'codex' });
    withStore((store) => {
      const rows = store.observations.forSession('x1').filter((o) => o.tool);
      expect(rows.map((o) => [o.tool, o.tool_use_id, o.outcome])).toEqual([
        ['Bash', 'c1', 'error'],
        ['apply_patch', 'p1', 'ok'],
      ]);
      expect(JSON.parse(String(rows[1]?.files))).toEqual([join(project, 'src/a.ts')]);
    });
  });
});

describe('telemetry', () => {
  it('adds one line per hook call to logs/hook-calls.jsonl: the hook, the agent, its time and how it ended', async () => {
    const bash = claude({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1' });
    await runHook('observe', bash, { home, env });
    await runHook('SessionStart', claude({ hook_event_name: 'SessionStart' }), { home, env, agent: 'codex' });
    await runHook('nonsense', '{}', { home, env });
    // A store that cannot open (the database path is a directory) fails the hook, which still answers.
    const broken = join(dir.path, 'broken');
    mkdirSync(join(broken, 'homunculus.db'), { recursive: true });
    const failed = await runHook('prompt', claude({ hook_event_name: 'UserPromptSubmit', prompt: 'hi' }), { home: broken, env });
    expect(failed.status).toBe('failed');

    const lines = (path: string) =>
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    const calls = lines(join(home, 'logs', 'hook-calls.jsonl'));
    expect(calls.map((c) => [c.event, c.agent, c.outcome])).toEqual([
      ['observe', 'claude-code', 'ok'],
      ['start', 'codex', 'ok'],
      // A name that is no hook is counted as one kind: telemetry lists hooks, not every typo (hooks.log names it).
      ['unknown', 'claude-code', 'ok'],
    ]);
    for (const c of calls) expect(c.ms).toBeGreaterThan(0);
    expect(Date.parse(String(calls[0]?.ts))).toBeGreaterThan(Date.parse('2026-01-01'));
    expect(lines(join(broken, 'logs', 'hook-calls.jsonl')).map((c) => [c.event, c.outcome])).toEqual([['prompt', 'failed']]);
  });
});

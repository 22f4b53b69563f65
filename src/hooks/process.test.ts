/** The hook process as agents run it: what it loads, and how bin.ts reaches it. */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cli, cliEnv, tempDir } from '../test-support/cli.js';

const dir = tempDir('hom-hookproc-');
afterAll(() => dir.cleanup());

const tool = JSON.stringify({
  session_id: 's',
  cwd: dir.path,
  hook_event_name: 'PostToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'make' },
  tool_use_id: 't',
});

/** The better-sqlite3 files a hook process had loaded when it exited. */
function sqliteLoaded(hook: string, home: string): string[] {
  const probe = join(dir.path, 'probe.cjs');
  const out = join(dir.path, `${hook}-loaded.json`);
  writeFileSync(
    probe,
    `process.on('exit', () => require('fs').writeFileSync(${JSON.stringify(out)}, JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('better-sqlite3')))));`,
  );
  const r = spawnSync(process.execPath, ['--require', probe, BIN, 'hook', hook], {
    input: tool,
    env: cliEnv(home, { HOMUNCULUS_NO_LEARN: '1' }),
    encoding: 'utf8',
  });
  expect(r.status).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as string[];
}

describe('the hook process', () => {
  it('observe never loads SQLite (it only spools); the other hooks do', () => {
    const home = join(dir.path, 'home');
    expect(sqliteLoaded('observe', home)).toEqual([]);
    expect(readdirSync(join(home, 'spool')).filter((n) => n.endsWith('.json'))).toHaveLength(1);
    expect(sqliteLoaded('stop', home).length).toBeGreaterThan(0);
    expect(readdirSync(join(home, 'spool'))).toEqual([]);
    // Each process logged its call, timed from its own start (Node's boot included).
    const calls = readFileSync(join(home, 'logs', 'hook-calls.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(calls.map((l) => (JSON.parse(l) as { event: string }).event)).toEqual(['observe', 'stop']);
    for (const l of calls) expect((JSON.parse(l) as { ms: number }).ms).toBeGreaterThan(10);
  });

  it('is reached after global options too, and documented in the command line help', () => {
    const home = join(dir.path, 'elsewhere');
    const r = cli(join(dir.path, 'unused'), ['--home', home, 'hook', 'observe'], { input: tool });
    expect(r.status).toBe(0);
    expect(readdirSync(join(home, 'spool'))).toHaveLength(1);
    expect(cli(home, ['hook', '--help']).stdout).toMatch(/^Usage: homunculus hook EVENT/);
    expect(cli(home, ['help', 'hook']).stdout).toContain('Usage: homunculus hook EVENT');
  });

  it('takes an --agent that names no agent from the payload, and says so in the hook log', () => {
    const home = join(dir.path, 'vim');
    const r = cli(home, ['hook', 'observe', '--agent', 'vim'], { input: tool });
    expect(r.status).toBe(0);
    expect(readdirSync(join(home, 'spool'))).toHaveLength(1);
    expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toMatch(
      /--agent "vim" names no agent \(claude-code, codex, gemini, cursor\)/,
    );
  });
});

describe('a hook that cannot finish', () => {
  it('answers at once for a home that cannot be created (recursive mkdir spins below /proc)', () => {
    const started = Date.now();
    const r = spawnSync(process.execPath, [BIN, 'hook', 'start'], {
      input: JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's', cwd: dir.path }),
      env: { ...cliEnv(join(dir.path, 'unused')), HOMUNCULUS_HOME: '/proc/nonexistent/home' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(() => JSON.parse(r.stdout || '{}') as unknown).not.toThrow();
  });

  it('is answered by the watchdog when the main thread is stuck in a synchronous call', () => {
    const probe = join(dir.path, 'stuck.mjs');
    const log = join(dir.path, 'stuck-calls.jsonl');
    const watchdog = join(BIN, '..', '..', 'hooks', 'watchdog.js');
    writeFileSync(
      probe,
      `import { startWatchdog } from ${JSON.stringify(watchdog)};\nstartWatchdog(300, '{"answer":"empty"}\\n', { path: ${JSON.stringify(log)}, line: '{"outcome":"timeout"}' });\nfor (;;) {}\n`,
    );
    const started = Date.now();
    const r = spawnSync(process.execPath, [probe], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stdout).toBe('{"answer":"empty"}\n');
    expect(r.signal).toBe('SIGKILL');
    expect(Date.now() - started).toBeLessThan(10_000);
    // The main thread never wrote its telemetry line: the watchdog did.
    expect(readFileSync(log, 'utf8')).toBe('{"outcome":"timeout"}\n');
  });

  it("answers and exits 0 before the agent's 15 s timeout when stdin never closes, and logs the call as timed out", async () => {
    const home = join(dir.path, 'open-stdin');
    // A busy machine: 2.5 s pass before our modules run. The agent's clock starts at the spawn, so must ours.
    const slow = join(dir.path, 'slow-start.cjs');
    writeFileSync(slow, 'const end = Date.now() + 2500; while (Date.now() < end) {}\n');
    const start = (hook: string, payload: string) => {
      const child = spawn(process.execPath, ['--require', slow, BIN, 'hook', hook], {
        env: cliEnv(home),
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      child.stdin.write(payload);
      return new Promise<number | null>((done) => child.on('exit', (code) => (child.stdin.destroy(), done(code))));
    };
    const started = Date.now();
    // The observe hook too: it has no watchdog, only its deadline (it was stuck until stdin closed).
    const [prompt, observe] = await Promise.all([
      start('prompt', '{"session_id":"s","hook_event_name":"UserPromptSubmit","prompt":"half a pay'),
      start('observe', tool.slice(0, 40)),
    ]);
    expect(Date.now() - started).toBeLessThan(15_000);
    // Answered by the hook itself, not killed (137) by its watchdog.
    expect([prompt, observe]).toEqual([0, 0]);
    const log = join(home, 'logs', 'hook-calls.jsonl');
    const calls = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event: string });
    expect(calls.sort((a, b) => a.event.localeCompare(b.event))).toEqual([
      expect.objectContaining({ event: 'observe', agent: 'claude-code', outcome: 'timeout' }),
      expect.objectContaining({ event: 'prompt', agent: 'claude-code', outcome: 'timeout' }),
    ]);
  }, 30_000);

  it('acts on a whole payload at once though the agent keeps stdin open', async () => {
    const home = join(dir.path, 'kept-open');
    const child = spawn(process.execPath, [BIN, 'hook', 'prompt'], { env: cliEnv(home), stdio: ['pipe', 'pipe', 'ignore'] });
    child.stdin.write(JSON.stringify({ session_id: 'k', hook_event_name: 'UserPromptSubmit', prompt: 'hello there', cwd: dir.path }));
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => (child.stdin.destroy(), done(c))));
    expect(code).toBe(0);
    const calls = readFileSync(join(home, 'logs', 'hook-calls.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(JSON.parse(calls.at(-1) ?? '{}')).toMatchObject({ event: 'prompt', outcome: 'ok' });
  });

  it('never answers twice: an answer claimed by the main thread silences the watchdog', () => {
    const probe = join(dir.path, 'claimed.mjs');
    const watchdog = join(BIN, '..', '..', 'hooks', 'watchdog.js');
    writeFileSync(
      probe,
      `import { startWatchdog } from ${JSON.stringify(watchdog)};\nconst w = startWatchdog(200, 'late\\n');\nif (w.claim()) process.stdout.write('main\\n');\nconst end = Date.now() + 600; while (Date.now() < end) {}\n`,
    );
    const r = spawnSync(process.execPath, [probe], { encoding: 'utf8', timeout: 20_000 });
    expect(r.stdout).toBe('main\n');
    expect(r.status).toBe(0);
  });

  it('never outlives the hook: stdout closes when the process ends, claimed or not', () => {
    const watchdog = join(BIN, '..', '..', 'hooks', 'watchdog.js');
    for (const claim of [true, false]) {
      const probe = join(dir.path, `ends-${String(claim)}.mjs`);
      writeFileSync(
        probe,
        `import { startWatchdog } from ${JSON.stringify(watchdog)};\nconst w = startWatchdog(8000, 'late\\n');\n${claim ? "if (w.claim()) process.stdout.write('main\\n');" : ''}\n`,
      );
      const started = Date.now();
      // spawnSync returns only once every holder of the stdout pipe has closed it.
      const r = spawnSync(process.execPath, [probe], { encoding: 'utf8', timeout: 20_000 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(r.stdout).toBe(claim ? 'main\n' : '');
      expect(r.status).toBe(0);
    }
  });
});

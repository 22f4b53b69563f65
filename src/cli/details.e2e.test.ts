/** Command-line details a new user meets: unknown commands, closed pipes, JSON errors, busy ports, read-only homes, Ctrl-C. */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cli, cliEnv, cliJson, tempDir } from '../test-support/cli.js';
import { runCli, runCliJson } from '../test-support/run-cli.js';
import { writeSyntheticCorpus } from '../test-support/corpus.js';

let home: ReturnType<typeof tempDir>;
beforeEach(() => (home = tempDir()));
afterEach(() => {
  chmodSync(home.path, 0o755);
  home.cleanup();
});

describe('the command line, as a new user meets it', () => {
  it('names an unknown command even with --help, exits 2, and answers JSON under --json', async () => {
    const plain = await runCli(home.path, ['dashbord', '--help']);
    expect(plain.status).toBe(2);
    expect(plain.stdout).toBe('');
    expect(plain.stderr).toMatch(/Unknown command "dashbord"/);
    const json = await runCli(home.path, ['dashbord', '--json']);
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ code: 'usage', error: 'Unknown command "dashbord".' });
    expect((await runCli(home.path, ['lsit'])).stderr).toMatch(/Did you mean `homunculus list`/);
  });

  it('refuses to read a store at a home that is not there (a typo), creating nothing, and says the fix', () => {
    const typo = join(home.path, 'no', 'such', 'home');
    const readers = [['status'], ['query', 'tests'], ['list'], ['agent', 'budget'], ['embed', '--status'], ['memory', 'delete', 'x']];
    // Deleting or forgetting finds nothing there either.
    for (const args of [...readers, ['forget', 'pref:x']]) {
      const r = cli(typo, args, { input: '' });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/There is no Homunculus store at .*no\/such\/home\.[\s\S]*homunculus sync/);
    }
    expect(existsSync(join(home.path, 'no'))).toBe(false);
    // A command that writes creates it, as before.
    expect(cli(typo, ['observe', 'pref:pkg=pnpm']).status).toBe(0);
  });

  it('refuses an empty --home, or the next option taken for its value, creating nothing', () => {
    const cwd = join(home.path, 'cwd');
    mkdirSync(cwd);
    const cases = [
      ['status', '--home', ''],
      ['status', '--home='],
      ['status', '--home', '--json'],
      ['mcp', '--home', '--no-open'],
      ['mcp', '--home='],
      ['dashboard', '--home', '--no-open'],
    ];
    for (const args of cases) {
      const r = cli(home.path, args, { cwd, input: '' });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/--home needs a value/);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('answers usage errors of the framework with one JSON document under --json', async () => {
    const r = await runCli(home.path, ['list', '--limit', '--json']);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ error: "option '--limit <n>' argument missing", code: 'usage', hint: null });
    const bad = await runCli(home.path, ['list', '--limit', 'ten', '--json']);
    expect(bad.status).toBe(2);
    expect(JSON.parse(bad.stdout)).toMatchObject({ code: 'usage', error: '--limit must be a whole number from 1 to 100000, got "ten".' });
  });

  it('answers a group named without its subcommand with one JSON document under --json', async () => {
    const cases: [string[], string, string][] = [
      [['graph', '--json'], 'homunculus graph', 'add, facts'],
      [['memory', '--json'], 'homunculus memory', 'add, import, delete'],
      [['--json', 'agent', 'schedule'], 'homunculus agent schedule', 'add, list, remove'],
    ];
    for (const [args, group, some] of cases) {
      const r = await runCli(home.path, args);
      expect(r.status, args.join(' ')).toBe(2);
      const body = JSON.parse(r.stdout) as { error: string; code: string; hint: string };
      expect(body).toMatchObject({ code: 'usage', hint: `Run \`${group} --help\` for what each does.` });
      expect(body.error).toMatch(new RegExp(`^${group} needs a subcommand: ${some}`));
    }
  });

  it('says a home that is a file is not a directory, and the fix, for --home and HOMUNCULUS_HOME', () => {
    const file = join(home.path, 'a-file');
    writeFileSync(file, 'x');
    for (const [args, env] of [
      [['status'], { HOMUNCULUS_HOME: file }],
      [['--home', file, 'observe', 'pref:pkg=pnpm'], {}],
      [['list', '--json'], { HOMUNCULUS_HOME: join(file, 'below') }],
    ] as const) {
      const r = cli(home.path, args, { env });
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/The Homunculus home .*a-file.* is a file \(or lies under one\), not a directory\.\n {2}fix: Point --home/);
      expect(r.stderr).not.toMatch(/unexpected error/);
    }
    // The doctor says so too, where it said the file was a writable home.
    const doctor = cli(home.path, ['doctor'], { env: { HOMUNCULUS_HOME: file } });
    expect(doctor.stdout).toMatch(/^✗ home: The Homunculus home .*a-file is a file \(or lies under one\), not a directory\.$/m);
  });

  it('ends quietly when its output goes into a closed pipe', async () => {
    for (const args of ['--help', 'graph --help', 'mcp --help']) {
      const r = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" ${args} | head -1 > /dev/null`], {
        env: cliEnv(home.path),
        encoding: 'utf8',
      });
      expect(r.stderr, args).toBe('');
      expect(r.status, args).toBe(0);
    }
  });

  it('lists the main job first in the help, and mcp --help names its default port once', async () => {
    const help = (await runCli(home.path, ['--help'])).stdout;
    expect(help.indexOf('Start here:')).toBeLessThan(help.indexOf('Instincts:'));
    expect(/Start here:\n\s+sync /.test(help)).toBe(true);
    const mcp = await runCli(home.path, ['mcp', '--help']);
    expect(mcp.status).toBe(0);
    expect(mcp.stdout.match(/7421/g)).toHaveLength(1);
    expect(mcp.stdout).not.toMatch(/seed \d/);
  });

  it('says which port is busy when mcp --http cannot listen, with the fix', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const { port } = blocker.address() as { port: number };
    try {
      const r = await new Promise<{ status: number | null; stderr: string }>((done) => {
        const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', String(port)], { env: cliEnv(home.path) });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (status) => done({ status, stderr }));
      });
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
      expect(r.stderr).toMatch(/fix: .*--port/);
      expect(r.stderr).not.toMatch(/unexpected error/);
    } finally {
      blocker.close();
    }
  });

  it('says how to fix a read-only home instead of an unexpected error, for reads and writes', () => {
    cliJson(home.path, ['observe', 'pref:pkg=pnpm']);
    chmodSync(join(home.path, 'homunculus.db'), 0o444);
    chmodSync(home.path, 0o555);
    // Root ignores file modes: run as nobody then.
    const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    for (const args of [['list'], ['query', 'pnpm'], ['observe', 'pref:a=b']]) {
      const r = cli(home.path, args, { ...as, env: { HOMUNCULUS_EMBEDDING: 'none' } });
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/cannot be written \(the file or its directory is read-only\)/);
      expect(r.stderr, args.join(' ')).toMatch(/fix: Make .* writable by you/);
    }
    chmodSync(home.path, 0o755);
    chmodSync(join(home.path, 'homunculus.db'), 0o644);
    expect(cliJson<{ count: number }>(home.path, ['list']).count).toBe(1);
  });

  it('stops sync on Ctrl-C saying how to resume, and the next sync finishes the same job', async () => {
    const SESSIONS = 120;
    const corpus = (dir: string) => writeSyntheticCorpus(dir, { sessions: SESSIONS, start: '2025-06-01T09:00:00Z' });
    corpus(home.path);
    const env = { ...cliEnv(home.path), HOMUNCULUS_EMBEDDING: 'none', HOMUNCULUS_NOW: '2026-01-01T00:00:00Z' };
    const interrupted = await new Promise<{ status: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BIN, 'sync', '--no-progress'], { env });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (status) => done({ status, stderr }));
      // Interrupt once a few transcripts are in (each writes its session file), well before the last.
      const poll = setInterval(() => {
        let files = 0;
        try {
          files = readdirSync(join(home.path, 'sessions', '_archived')).length;
        } catch {
          // not yet
        }
        if (files >= 5) {
          clearInterval(poll);
          child.kill('SIGINT');
        }
      }, 20);
      child.on('close', () => clearInterval(poll));
    });
    expect(interrupted.status).toBe(130);
    expect(interrupted.stderr).toMatch(
      /sync interrupted; what was imported and learned so far is kept \(`homunculus list` shows the instincts, `homunculus status` the counts\)\. Run `homunculus sync` again/,
    );
    const resumed = JSON.parse(spawnSync(process.execPath, [BIN, 'sync', '--json'], { env, encoding: 'utf8' }).stdout) as {
      instincts: number;
    };

    const reference = tempDir();
    try {
      corpus(reference.path);
      const whole = spawnSync(process.execPath, [BIN, 'sync', '--json'], {
        env: { ...env, HOMUNCULUS_HOME: reference.path, HOME: reference.path },
        encoding: 'utf8',
      });
      const expected = JSON.parse(whole.stdout) as { instincts: number };
      expect(resumed.instincts).toBe(expected.instincts);
      const count = (h: string) => JSON.parse(readFileSync(join(h, 'identity.json'), 'utf8')).session_count as number;
      expect(count(home.path)).toBe(count(reference.path));
      expect(count(home.path)).toBe(SESSIONS);
    } finally {
      reference.cleanup();
    }
  }, 120_000);
});

describe('a home directory to create', () => {
  it('creates a missing nested --home', async () => {
    const nested = join(home.path, 'a', 'b');
    mkdirSync(join(home.path, 'a'));
    expect((await runCliJson<{ home: string }>(nested, ['init'])).home).toBe(nested);
  });
});

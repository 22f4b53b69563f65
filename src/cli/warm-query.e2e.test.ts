import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cli, cliEnv, tempDir } from '../test-support/cli.js';
import { warmSocket } from './warm-query.js';

let home: ReturnType<typeof tempDir>;
const waitFor = async (ok: () => boolean, ms = 15_000): Promise<void> => {
  const until = Date.now() + ms;
  while (!ok() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
};

beforeAll(() => {
  home = tempDir();
  const memories: [string, string][] = [
    ['staging', 'The staging database lives on db-2'],
    ['deploy', 'Deploys go out on Tuesdays after the review'],
  ];
  for (const [id, text] of memories) expect(cli(home.path, ['memory', 'add', text, '--id', id, '--no-embed']).status).toBe(0);
});
afterAll(() => home.cleanup());

describe('a warm query server', () => {
  it('answers later queries as the CLI itself would, over a socket only this user can open, and stops when idle', async () => {
    const server = spawn(process.execPath, [BIN, 'serve-query', '--idle', '8'], {
      env: cliEnv(home.path, { HOMUNCULUS_NO_WARM: undefined }),
    });
    const socket = warmSocket(home.path);
    await waitFor(() => existsSync(socket));
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    const args = ['query', 'where is the staging database', '--mode', 'bm25', '--json'];
    const warm = cli(home.path, args, { env: { HOMUNCULUS_NO_WARM: undefined } });
    // A request that is not JSON gets an error back, and the server keeps serving. Asked at once:
    // the server stops after 8 idle seconds, which one cold CLI run can take on a loaded machine.
    const reply = await new Promise<string>((resolve) => {
      let got = '';
      const raw = createConnection(socket, () => raw.write('not json\n'));
      raw.on('data', (d) => (got += d.toString()));
      raw.on('close', () => resolve(got));
    });
    expect(JSON.parse(reply)).toMatchObject({ ok: false });
    const cold = cli(home.path, args);
    expect(warm.status).toBe(0);
    expect(JSON.parse(warm.stdout)).toEqual(JSON.parse(cold.stdout));
    expect((JSON.parse(warm.stdout) as { results: { id: string }[] }).results[0]?.id).toBe('staging');
    // A bad request is answered by the CLI itself, with its own words.
    const bad = cli(home.path, ['query', 'x', '--limit', 'many'], { env: { HOMUNCULUS_NO_WARM: undefined } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--limit/);
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    expect(await exited).toBe(0);
    expect(existsSync(socket)).toBe(false);
  });

  it('never answers from a database that was replaced, and stops when its home is made anew', async () => {
    const env = { HOMUNCULUS_NO_WARM: undefined };
    // Each server's exit is listened for from its spawn: one that ends early is never missed.
    const servers: { child: ChildProcess; exit: Promise<number | null> }[] = [];
    const start = () => {
      const child = spawn(process.execPath, [BIN, 'serve-query', '--idle', '120'], { env: cliEnv(home.path, env) });
      const server = { child, exit: new Promise<number | null>((resolve) => child.on('exit', resolve)) };
      servers.push(server);
      return server;
    };
    const socket = warmSocket(home.path);
    try {
      const first = start();
      await waitFor(() => existsSync(socket));
      // A backup moved into place: a new file under the database's name.
      const other = tempDir();
      expect(cli(other.path, ['memory', 'add', 'The staging database moved to db-9', '--id', 'moved', '--no-embed']).status).toBe(0);
      renameSync(join(other.path, 'homunculus.db'), join(home.path, 'homunculus.db'));
      other.cleanup();
      const r = cli(home.path, ['query', 'where is the staging database', '--mode', 'bm25', '--json'], { env });
      expect((JSON.parse(r.stdout) as { results: { id: string }[] }).results.map((x) => x.id)).toEqual(['moved']);
      expect(await first.exit).toBe(0);
      expect(existsSync(socket)).toBe(false);
      // The home deleted and made again: the old server, out of reach, goes within seconds.
      const second = start();
      await waitFor(() => existsSync(socket));
      rmSync(home.path, { recursive: true, force: true });
      expect(cli(home.path, ['memory', 'add', 'The staging database lives on db-2', '--id', 'staging', '--no-embed']).status).toBe(0);
      expect(cli(home.path, ['memory', 'add', 'Deploys go out on Tuesdays after the review', '--id', 'deploy', '--no-embed']).status).toBe(
        0,
      );
      expect(await second.exit).toBe(0);
    } finally {
      for (const { child } of servers) if (child.exitCode === null && child.signalCode === null) child.kill();
    }
  }, 120_000);

  /** Runs `fn` against a server started for it (two minutes idle), killed after if still running. */
  const withServer = async (fn: (socket: string, exited: Promise<number | null>) => Promise<void>): Promise<void> => {
    const server = spawn(process.execPath, [BIN, 'serve-query', '--idle', '120'], {
      env: cliEnv(home.path, { HOMUNCULUS_NO_WARM: undefined }),
    });
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    try {
      const socket = warmSocket(home.path);
      await waitFor(() => existsSync(socket));
      await fn(socket, exited);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill();
    }
  };

  it('answers only a CLI of its own build, and stops for another (a rebuilt or upgraded install)', async () => {
    await withServer(async (socket, exited) => {
      const request = JSON.stringify({ code: 'an older build', input: { query: 'staging', mode: 'bm25' } });
      const reply = await new Promise<string>((resolve) => {
        let got = '';
        const raw = createConnection(socket, () => raw.write(`${request}\n`));
        raw.on('data', (d) => (got += d.toString()));
        raw.on('close', () => resolve(got));
      });
      expect(JSON.parse(reply)).toEqual({ ok: false, error: 'this query server is out of date (another build, or new settings)' });
      expect(await exited).toBe(0);
      expect(existsSync(socket)).toBe(false);
      // The CLI answers by itself meanwhile.
      const r = cli(home.path, ['query', 'where is the staging database', '--mode', 'bm25', '--json'], {
        env: { HOMUNCULUS_NO_WARM: undefined },
      });
      expect((JSON.parse(r.stdout) as { results: { id: string }[] }).results[0]?.id).toBe('staging');
    });
  }, 60_000);

  it('stops when config.json changes: it would answer with the old settings', async () => {
    try {
      await withServer(async (socket, exited) => {
        writeFileSync(join(home.path, 'config.json'), JSON.stringify({ embedding: { provider: 'none' } }));
        expect(await exited).toBe(0);
        expect(existsSync(socket)).toBe(false);
      });
    } finally {
      rmSync(join(home.path, 'config.json'), { force: true });
    }
  }, 60_000);

  it('refuses an idle time that is not a positive number of seconds', () => {
    const r = cli(home.path, ['serve-query', '--idle', '-3']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--idle must be a number of seconds above 0/);
    expect(existsSync(warmSocket(home.path))).toBe(false);
  });

  it('a query with a stale socket file left behind still answers', () => {
    const r = cli(home.path, ['query', 'when do deploys go out', '--mode', 'bm25', '--json'], { env: { HOMUNCULUS_NO_WARM: undefined } });
    expect(r.status).toBe(0);
    expect((JSON.parse(r.stdout) as { results: { id: string }[] }).results[0]?.id).toBe('deploy');
  });
});

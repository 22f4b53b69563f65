import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
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
    const server = spawn(process.execPath, [BIN, 'serve-query', '--idle', '3'], {
      env: cliEnv(home.path, { HOMUNCULUS_NO_WARM: undefined }),
    });
    const socket = warmSocket(home.path);
    await waitFor(() => existsSync(socket));
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    const args = ['query', 'where is the staging database', '--mode', 'bm25', '--json'];
    const warm = cli(home.path, args, { env: { HOMUNCULUS_NO_WARM: undefined } });
    const cold = cli(home.path, args);
    expect(warm.status).toBe(0);
    expect(JSON.parse(warm.stdout)).toEqual(JSON.parse(cold.stdout));
    expect((JSON.parse(warm.stdout) as { results: { id: string }[] }).results[0]?.id).toBe('staging');
    // A request that is not JSON gets an error back, and the server keeps serving.
    const reply = await new Promise<string>((resolve) => {
      let got = '';
      const raw = createConnection(socket, () => raw.write('not json\n'));
      raw.on('data', (d) => (got += d.toString()));
      raw.on('close', () => resolve(got));
    });
    expect(JSON.parse(reply)).toMatchObject({ ok: false });
    // A bad request is answered by the CLI itself, with its own words.
    const bad = cli(home.path, ['query', 'x', '--limit', 'many'], { env: { HOMUNCULUS_NO_WARM: undefined } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--limit/);
    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    expect(await exited).toBe(0);
    expect(existsSync(socket)).toBe(false);
  });

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

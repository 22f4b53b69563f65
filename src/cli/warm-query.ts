/**
 * A warm process for `query`. Loading the sentence encoder is most of a cold query's time, so a
 * query server keeps it loaded and later `query` processes ask it over a Unix socket in the
 * data directory: a file only this user can open, no network port. The first hybrid query
 * starts one in the background; it stops after an idle spell, or when its database or its socket
 * is gone or replaced (a home deleted and made again, a backup moved into place): it would answer
 * from a file no longer there, or be one that nobody can reach. It answers only a CLI of its own
 * build, and stops when its code is rebuilt or upgraded or config.json changes: it would answer
 * with the old code or the old settings (another embedding model, none).
 * Anything the server cannot answer, the CLI answers itself.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { query } from '../app/memory.js';
import { parseInput } from '../app/operation.js';
import type { Store } from '../store/store.js';

/** Unix socket paths are limited to about 100 bytes. */
const MAX_SOCKET_PATH = 100;
const MAX_REQUEST_BYTES = 64 * 1024;
export const WARM_IDLE_MS = 15 * 60_000;

export const warmSocket = (home: string): string => join(home, 'run', 'query.sock');
export const warmDisabled = (env: NodeJS.ProcessEnv = process.env): boolean => env.HOMUNCULUS_NO_WARM === '1';

type QueryResult = Awaited<ReturnType<typeof query.run>>;

/** A file's identity and time (the code this process runs by default): a rebuild, an upgrade or an edit changes it. */
export function fileVersion(file = fileURLToPath(import.meta.url)): string | undefined {
  try {
    const st = statSync(file);
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
}

/** The warm server's answer to `input`, or undefined when there is none to ask or it could not answer. */
export function askWarm(home: string, input: unknown, timeoutMs = 2_000): Promise<QueryResult | undefined> {
  const path = warmSocket(home);
  if (path.length > MAX_SOCKET_PATH || !existsSync(path)) return Promise.resolve(undefined);
  return new Promise((done) => {
    let reply = '';
    const socket = createConnection(path);
    const finish = (value: QueryResult | undefined): void => {
      socket.destroy();
      done(value);
    };
    socket.setTimeout(timeoutMs, () => finish(undefined));
    socket.on('error', () => finish(undefined));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (!reply.includes('\n')) return;
      try {
        const answer = JSON.parse(reply) as { ok: boolean; result?: QueryResult };
        finish(answer.ok ? answer.result : undefined);
      } catch {
        finish(undefined);
      }
    });
    socket.on('connect', () => socket.write(`${JSON.stringify({ code: fileVersion(), input })}\n`));
  });
}

/** Whether a server answers on the socket (a left-over socket file of a dead one does not). */
function answering(path: string): Promise<boolean> {
  return new Promise((done) => {
    const socket = createConnection(path);
    socket.on('connect', () => (socket.destroy(), done(true)));
    socket.on('error', () => done(false));
  });
}

/** A file's identity (device and inode), or undefined when it is not there. */
function identity(path: string): string | undefined {
  try {
    const st = statSync(path);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** Serves `query` on the socket until `idleMs` pass without a question, the database is gone or the code changed. */
export async function serveWarm(store: Store, idleMs = WARM_IDLE_MS): Promise<'served' | 'already running' | 'replaced'> {
  const path = warmSocket(store.paths.home);
  if (path.length > MAX_SOCKET_PATH) throw new Error(`The socket path ${path} is too long for this system.`);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (existsSync(path)) {
    if (await answering(path)) return 'already running';
    unlinkSync(path);
  }
  const ctx = { store, env: process.env };
  let timer: NodeJS.Timeout | undefined;
  const server = createServer((socket) => {
    let request = '';
    socket.on('error', () => socket.destroy());
    socket.on('data', async (chunk) => {
      request += chunk.toString('utf8');
      if (request.length > MAX_REQUEST_BYTES) return void socket.end(`${JSON.stringify({ ok: false, error: 'request too large' })}\n`);
      if (!request.includes('\n')) return;
      if (replaced()) return void (socket.end(`${JSON.stringify({ ok: false, error: 'the database was replaced' })}\n`), stop(true));
      let asked: { code?: unknown; input?: unknown };
      try {
        asked = JSON.parse(request) as typeof asked;
      } catch {
        return void socket.end(`${JSON.stringify({ ok: false, error: 'the request is not JSON' })}\n`);
      }
      if (asked?.code !== code || settingsChanged())
        return void (
          socket.end(`${JSON.stringify({ ok: false, error: 'this query server is out of date (another build, or new settings)' })}\n`),
          stop()
        );
      arm();
      try {
        const result = await query.run(ctx, parseInput(query, asked.input));
        socket.end(`${JSON.stringify({ ok: true, result })}\n`);
      } catch (err) {
        socket.end(`${JSON.stringify({ ok: false, error: (err as Error).message })}\n`);
      }
    });
  });
  const stopped = new Promise<void>((resolve) => server.on('close', resolve));
  const db = identity(store.paths.db);
  const code = fileVersion();
  const config = fileVersion(store.paths.config);
  const settingsChanged = (): boolean => fileVersion() !== code || fileVersion(store.paths.config) !== config;
  const replaced = (): boolean => identity(store.paths.db) !== db || identity(path) !== mine;
  let wasReplaced = false;
  const stop = (replacedNow = false): void => {
    wasReplaced ||= replacedNow;
    clearTimeout(timer);
    server.close();
    if (mine !== undefined && identity(path) === mine) unlinkSync(path);
  };
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => stop(), idleMs);
  };
  // Only this user may connect: the socket is created unreadable to others.
  const umask = process.umask(0o177);
  await new Promise<void>((resolve, reject) => server.listen(path, resolve).on('error', reject));
  process.umask(umask);
  chmodSync(path, 0o600);
  // Ours to remove only while it is the socket this server made (the closures above run only after this).
  const mine = identity(path);
  arm();
  const watch = setInterval(() => (replaced() ? stop(true) : settingsChanged() && stop()), 5_000);
  process.once('SIGTERM', () => stop()).once('SIGINT', () => stop());
  await stopped;
  clearInterval(watch);
  return wasReplaced ? 'replaced' : 'served';
}

/** Starts a query server in the background for the next queries, unless one runs or warm queries are off. */
export async function startWarm(home: string): Promise<void> {
  const path = warmSocket(home);
  if (warmDisabled() || path.length > MAX_SOCKET_PATH || (existsSync(path) && (await answering(path)))) return;
  const bin = join(dirname(fileURLToPath(import.meta.url)), 'bin.js');
  const child = spawn(process.execPath, [bin, '--home', home, 'serve-query'], { detached: true, stdio: 'ignore', env: process.env });
  child.unref();
}

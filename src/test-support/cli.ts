/** Helpers for tests that drive the built `homunculus` binary on a temporary home. */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';
import { pauseSync } from '../core/clock.js';
import { REPO_ROOT } from './paths.js';
import { TEST_RUNTIME } from './shared.js';

export { REPO_ROOT } from './paths.js';
export const BIN = join(REPO_ROOT, 'dist', 'cli', 'bin.js');

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Other processes (Linux: read from /proc) whose command line or working directory lies under `path`. */
function processesUnder(path: string): number[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid);
  } catch {
    return [];
  }
  return pids.map(Number).filter((pid) => {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(path)) return true;
      return readlinkSync(`/proc/${pid}/cwd`).startsWith(path);
    } catch {
      return false; // gone, or not ours to read
    }
  });
}

/** Waits (up to `timeoutMs`) for processes working under `path` to end. */
function settle(path: string, timeoutMs = 30_000): void {
  const until = Date.now() + timeoutMs;
  while (processesUnder(path).length > 0 && Date.now() < until) pauseSync(200);
}

export function tempDir(prefix = 'homunculus-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  // A detached process a test started (the stop hook's `learn`, a client's own helper) may still be
  // writing under the folder: it is waited for, and the removal retried for what it wrote last.
  const cleanup = () => {
    settle(path);
    rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  };
  return { path, cleanup };
}

/** A scratch folder removed when the test that made it ends (made outside a test: when its file's tests end). */
export function scratchDir(prefix: string): string {
  const dir = tempDir(prefix);
  try {
    onTestFinished(dir.cleanup);
  } catch {
    afterAll(dir.cleanup);
  }
  return dir.path;
}

export function cliEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  // No background query server outlives a test unless the test asks for one.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOMUNCULUS_HOME: home,
    HOME: home,
    HOMUNCULUS_RUNTIME: TEST_RUNTIME,
    HOMUNCULUS_NO_WARM: '1',
    ...extra,
  };
  delete env.HOMUNCULUS_OBSERVER;
  if (!('HOMUNCULUS_NOW' in extra)) delete env.HOMUNCULUS_NOW;
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete env[k];
  return env;
}

/** Runs the CLI synchronously. */
export function cli(
  home: string,
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; input?: string | Buffer; cwd?: string; uid?: number; gid?: number } = {},
): CliResult {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: cliEnv(home, options.env),
    input: options.input,
    cwd: options.cwd,
    ...(options.uid !== undefined ? { uid: options.uid, gid: options.gid } : {}),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI and parses its --json output. */
export function cliJson<T = Record<string, unknown>>(home: string, args: readonly string[], env?: Record<string, string | undefined>): T {
  const result = cli(home, [...args, '--json'], { env });
  if (result.status !== 0) throw new Error(`homunculus ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/** Runs any node script asynchronously (for concurrency tests, or beside a loopback stub), with `input` on stdin when given. */
export function runNode(args: readonly string[], env: NodeJS.ProcessEnv, input?: string): Promise<CliResult> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ status: code ?? -1, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
  });
}

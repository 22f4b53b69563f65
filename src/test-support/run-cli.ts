/**
 * Runs the CLI in this process, through the same `run(argv)` the binary calls, on the
 * source (never a stale build): the environment, working directory and output streams are
 * swapped for the call and put back after. Tests that need a real process (hooks, signals,
 * start-up, stdin, another user) spawn the binary with `cli()` instead.
 */
import { run } from '../cli/program.js';
import { type CliResult, cliEnv } from './cli.js';

type Write = typeof process.stdout.write;

function capture(stream: NodeJS.WriteStream, into: string[]): () => void {
  const original = stream.write;
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    into.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    done?.();
    return true;
  }) as Write;
  return () => {
    stream.write = original;
  };
}

let running = Promise.resolve();

/** `homunculus <args>` on `home`, in process. Calls are serialised: they share process-wide state. */
export function runCli(
  home: string,
  args: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): Promise<CliResult> {
  const result = running.then(() => runOnce(home, args, options));
  running = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}

async function runOnce(home: string, args: readonly string[], options: { env?: Record<string, string | undefined>; cwd?: string }) {
  const saved = { env: process.env, cwd: process.cwd(), exitCode: process.exitCode };
  const stdout: string[] = [];
  const stderr: string[] = [];
  process.env = cliEnv(home, options.env);
  if (options.cwd) process.chdir(options.cwd);
  process.exitCode = undefined;
  const restore = [capture(process.stdout, stdout), capture(process.stderr, stderr)];
  let status: number;
  try {
    status = await run(['node', 'homunculus', ...args]);
  } finally {
    for (const r of restore) r();
    process.env = saved.env;
    process.chdir(saved.cwd);
    process.exitCode = saved.exitCode;
  }
  return { status, stdout: stdout.join(''), stderr: stderr.join('') } satisfies CliResult;
}

/** Runs the CLI in process and parses its --json output. */
export async function runCliJson<T = Record<string, unknown>>(
  home: string,
  args: readonly string[],
  env?: Record<string, string | undefined>,
): Promise<T> {
  const result = await runCli(home, [...args, '--json'], { env });
  if (result.status !== 0) throw new Error(`homunculus ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

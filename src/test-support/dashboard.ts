/** The dashboard as its browser tests use it: the CLI started on a free port, chromium, screenshots. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { BIN, REPO_ROOT, cliEnv } from './cli.js';
import { CHROMIUM } from './shared.js';

export interface RunningDashboard {
  child: ChildProcessWithoutNullStreams;
  url: string;
  /** The one-time login link the CLI printed. */
  login: string;
  out: () => string;
  /** Ctrl-C, and the exit code. */
  stop: () => Promise<number | null>;
}

export const exited = (child: ChildProcessWithoutNullStreams) =>
  new Promise<number | null>((done) => {
    if (child.exitCode !== null) done(child.exitCode);
    else child.on('exit', (code) => done(code));
  });

/** `homunculus dashboard --json` started on `home`, with the line it printed. */
export async function startDashboardCli(home: string): Promise<RunningDashboard> {
  const child = spawn(process.execPath, [BIN, 'dashboard', '--no-open', '--port', '0', '--json'], { env: cliEnv(home) });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const first = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no login line: ${out}`)), 15_000);
    child.stdout.on('data', () => out.includes('\n') && (clearTimeout(timer), done(out.split('\n')[0] as string)));
  });
  const { url, login } = JSON.parse(first) as { url: string; login: string };
  const stop = () => {
    const code = exited(child);
    child.kill('SIGINT');
    return code;
  };
  return { child, url, login, out: () => out, stop };
}

/** Debian's chromium, headless, with nothing that reaches the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Where screenshots of every section are kept as test artifacts. */
export function screenshotPath(name: string): string {
  const dir = join(REPO_ROOT, 'test-artifacts');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

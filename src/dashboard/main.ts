/**
 * The dashboard process: `homunculus dashboard [--port N] [--host 127.0.0.1] [--no-open]
 * [--home DIR] [--json]`, reached from bin.ts without the command-line framework. It serves
 * until Ctrl-C, then closes every connection and the store.
 */
import { spawn } from 'node:child_process';
import { closeSync, constants, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { portFlag, flagsMain } from '../core/flags.js';
import { UsageError } from '../core/errors.js';

export const DEFAULT_PORT = 7422;

const USAGE = `Usage: homunculus dashboard [--port <n>] [--no-open] [--home <dir>] [--json]

Serves the web dashboard on http://127.0.0.1:<port> (never another address): what Homunculus
learned, and correcting it. Prints a login link that works once (its token is exchanged for a
session cookie) and opens it in your browser. Ctrl-C stops it.

Options:
  --port <n>    port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT_PORT})
  --host <a>    only 127.0.0.1 is served; any other address is refused
  --no-open     print the login link without opening a browser
  --home <dir>  data directory (default: $HOMUNCULUS_HOME or ~/.homunculus)
  --json        print {"url", "login", "page"} as one JSON line (page: the file the browser is opened on)
  -h, --help    display this help
`;

/**
 * A page in the home, readable by its owner only, that sends the browser on to the login link.
 * The browser is opened on this file, not on the link: a program's arguments are visible to
 * every user of the machine (`ps`), and the link's token would be theirs to sign in with first.
 */
export function writeLoginPage(home: string, port: number, login: string): string {
  // One per port: two dashboards never share (or remove) each other's page.
  const path = join(home, `dashboard-login-${port}.html`);
  const target = JSON.stringify(login).replace(/</g, '\\u003c');
  const html = `<!doctype html><meta charset="utf-8"><title>Homunculus</title><script>location.replace(${target})</script>\n`;
  rmSync(path, { force: true });
  // Created afresh, never through a link someone put in its place.
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, html);
  } finally {
    closeSync(fd);
  }
  return path;
}

/** The user's browser on `target` (a file or a link), in the background; without one, the printed link is enough. */
function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the link is printed.
  }
}

async function serve(f: Record<string, string | true>): Promise<void> {
  if (f.host !== undefined && f.host !== '127.0.0.1')
    throw new UsageError(
      `The dashboard serves 127.0.0.1 only, not ${String(f.host)}.`,
      'Leave --host out; reach it from elsewhere through an SSH tunnel.',
    );
  const port = typeof f.port === 'string' ? portFlag(f.port) : DEFAULT_PORT;
  const [{ openStore }, { startDashboard }] = await Promise.all([import('../store/store.js'), import('./server.js')]);
  const store = openStore({ home: typeof f.home === 'string' ? f.home : undefined });
  try {
    const handle = await startDashboard({ store, env: process.env }, port);
    const login = `${handle.url}/#token=${handle.gate.issueLogin()}`;
    const page = writeLoginPage(store.paths.home, handle.port, login);
    if (f.json) process.stdout.write(`${JSON.stringify({ url: handle.url, login, page })}\n`);
    else
      process.stdout.write(`Dashboard on ${handle.url}\nSign in once with this link (it works one time):\n  ${login}\nCtrl-C stops it.\n`);
    if (f['no-open'] !== true) openBrowser(page);
    await new Promise<void>((stop) => {
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      // The terminal closed: stop as cleanly, the login page removed.
      process.once('SIGHUP', stop);
    });
    await handle.close();
    rmSync(page, { force: true });
    if (!f.json) process.stdout.write('Dashboard stopped.\n');
  } finally {
    store.close();
  }
}

export function main(args: readonly string[]): Promise<number> {
  return flagsMain(args, { command: 'dashboard', booleans: ['help', 'no-open', 'json'], values: ['port', 'host', 'home'] }, USAGE, serve);
}

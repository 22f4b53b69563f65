/**
 * The dashboard process: `homunculus dashboard [--port N] [--host 127.0.0.1] [--no-open]
 * [--home DIR] [--json]`, reached from bin.ts without the command-line framework. It serves
 * until Ctrl-C, then closes every connection and the store.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { portFlag, flagsMain } from '../core/flags.js';
import { namedHomeMissing } from '../core/paths.js';
import { HomunculusError, UsageError } from '../core/errors.js';
import { askForLogin, relinkKeyPath, writePrivateFile } from './relink.js';

export const DEFAULT_PORT = 7422;

const USAGE = `Usage: homunculus dashboard [--port <n>] [--no-open] [--home <dir>] [--json]

Serves the web dashboard on http://127.0.0.1:<port> (never another address): what Homunculus
learned, and correcting it. Prints a login link that works once (its token is exchanged for a
session cookie) and opens it in your browser. Run again while it serves this home, it prints a
new link (after signing out, or when the link was used or expired). Ctrl-C stops it.

Options:
  --port <n>    port on 127.0.0.1; 0 picks a free one (default: ${DEFAULT_PORT})
  --host <a>    only 127.0.0.1 is served; any other address is refused
  --no-open     print the login link without opening a browser
  --home <dir>  data directory (default: $HOMUNCULUS_HOME or ~/.homunculus)
  --json        print {"url", "login", "page"} as one JSON line (page: the file the browser is opened on;
                "running": true when the dashboard already ran and only a new link was made)
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
  writePrivateFile(path, `<!doctype html><meta charset="utf-8"><title>Homunculus</title><script>location.replace(${target})</script>\n`);
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

/** Asks the dashboard already serving this home on `port` for a new login link and hands it over as a start would; false when none does. */
async function relinkRunning(home: string, port: number, f: Record<string, string | true>): Promise<boolean> {
  const token = await askForLogin(home, port);
  if (!token) return false;
  const url = `http://127.0.0.1:${port}`;
  const login = `${url}/#token=${token}`;
  const page = writeLoginPage(home, port, login);
  if (f.json) process.stdout.write(`${JSON.stringify({ url, login, page, running: true })}\n`);
  else process.stdout.write(`The dashboard already runs on ${url}.\nA new sign-in link (it works one time):\n  ${login}\n`);
  if (f['no-open'] !== true) openBrowser(page);
  return true;
}

async function serve(f: Record<string, string | true>): Promise<void> {
  if (f.host !== undefined && f.host !== '127.0.0.1')
    throw new UsageError(
      `The dashboard serves 127.0.0.1 only, not ${String(f.host)}.`,
      'Leave --host out; reach it from elsewhere through an SSH tunnel.',
    );
  const port = typeof f.port === 'string' ? portFlag(f.port) : DEFAULT_PORT;
  // A typo in --home would serve (and begin) an empty store there.
  const missing = namedHomeMissing(typeof f.home === 'string' ? f.home : undefined);
  if (missing) throw missing;
  const [{ openStore }, { startDashboard }] = await Promise.all([import('../store/store.js'), import('./server.js')]);
  const store = openStore({ home: typeof f.home === 'string' ? f.home : undefined });
  try {
    const handle = await startDashboard({ store, env: process.env }, port).catch(async (err: unknown) => {
      if (err instanceof HomunculusError && err.code === 'port_in_use' && (await relinkRunning(store.paths.home, port, f)))
        return undefined;
      throw err;
    });
    if (!handle) return;
    const home = store.paths.home;
    const login = `${handle.url}/#token=${handle.gate.issueLogin()}`;
    const page = writeLoginPage(home, handle.port, login);
    writePrivateFile(relinkKeyPath(home, handle.port), `${handle.gate.relinkKey}\n`);
    if (f.json) process.stdout.write(`${JSON.stringify({ url: handle.url, login, page })}\n`);
    else
      process.stdout.write(
        `Dashboard on ${handle.url}\nSign in once with this link (it works one time; run this command again for another):\n  ${login}\nCtrl-C stops it.\n`,
      );
    if (f['no-open'] !== true) openBrowser(page);
    await new Promise<void>((stop) => {
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      // The terminal closed: stop as cleanly, the login page removed.
      process.once('SIGHUP', stop);
    });
    await handle.close();
    rmSync(page, { force: true });
    rmSync(relinkKeyPath(home, handle.port), { force: true });
    if (!f.json) process.stdout.write('Dashboard stopped.\n');
  } finally {
    store.close();
  }
}

export function main(args: readonly string[]): Promise<number> {
  return flagsMain(args, { command: 'dashboard', booleans: ['help', 'no-open', 'json'], values: ['port', 'host', 'home'] }, USAGE, serve);
}

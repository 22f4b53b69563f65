/** `homunculus dashboard` run again while one serves the home: a new login link, not a port in use. */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cliEnv, runNode, tempDir } from '../test-support/cli.js';
import { startDashboardCli } from '../test-support/dashboard.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir('homunculus-relink-')));
afterEach(() => dir.cleanup());

const tokenOf = (login: string): string => new URL(login).hash.replace('#token=', '');

describe('homunculus dashboard, run again', () => {
  it('gives a new one-time link from the running dashboard of this home, and nothing to anyone else', async () => {
    const home = join(dir.path, 'home');
    // A home named on purpose must exist (a typo is refused); `init` makes it.
    mkdirSync(home);
    const running = await startDashboardCli(home);
    const port = new URL(running.url).port;
    const post = (path: string, headers: Record<string, string>, body: unknown = {}) =>
      fetch(`${running.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
    const signIn = (login: string) => post('/api/session', { Origin: running.url }, { token: tokenOf(login) });
    try {
      // The first link is spent (or signed out of): it works no more.
      expect((await signIn(running.login)).status).toBe(200);
      expect((await signIn(running.login)).status).toBe(401);

      const again = await runNode([BIN, 'dashboard', '--no-open', '--port', port, '--json'], cliEnv(home));
      expect(again.status, again.stderr).toBe(0);
      const fresh = JSON.parse(again.stdout) as { url: string; login: string; running: boolean };
      expect(fresh).toMatchObject({ url: running.url, running: true });
      expect((await signIn(fresh.login)).status).toBe(200);
      expect((await signIn(fresh.login)).status).toBe(401);
      const words = await runNode([BIN, 'dashboard', '--no-open', '--port', port], cliEnv(home));
      expect(words.stdout).toMatch(
        /^The dashboard already runs on http:\/\/127\.0\.0\.1:\d+\.\nA new sign-in link \(it works one time\):\n {2}http/,
      );

      // Another home on that port: the port is in use, as before.
      mkdirSync(join(dir.path, 'other'));
      const other = await runNode([BIN, 'dashboard', '--no-open', '--port', port], cliEnv(join(dir.path, 'other')));
      expect(other.status).not.toBe(0);
      expect(other.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use.`);
      // Without the key from the home, or from a page (no Origin, another origin): refused.
      expect((await post('/api/relink', { Origin: running.url })).status).toBe(401);
      expect((await post('/api/relink', { Origin: running.url, 'X-Homunculus-Relink': 'guess' })).status).toBe(401);
      expect((await post('/api/relink', { Origin: 'http://127.0.0.1:1' })).status).toBe(403);
    } finally {
      expect(await running.stop()).toBe(0);
    }
    expect(existsSync(join(home, `dashboard-${port}.key`))).toBe(false);
  }, 60_000);
});

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { cli, tempDir } from '../test-support/cli.js';
import { launchChromium, pageAuth, screenshotPath, startDashboardCli } from '../test-support/dashboard.js';
import { hasChromium } from '../test-support/shared.js';

const KEY = 'pref:webapp/test=npm-test';
const PROJECT = 'aaaaaaaaaaaaaaaa';
let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir();
  const store = openStore({ home: home.path });
  observe(store, {
    pattern: KEY,
    trigger: 'when you need to run the tests in webapp',
    action: 'Use `npm test`.',
    project: PROJECT,
    occurrences: 4,
  });
  store.sessions.save({
    ...{ id: 's1', source: 'claude-code', project: PROJECT, project_name: 'webapp', cwd: '/nonexistent/webapp' },
    ...{ started_at: '2026-01-05T10:00:00.000Z', ended_at: '2026-01-05T11:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
    ...{ files_touched: '[]', summary: 'Added the login page.', continues_from: null, transcript_path: null, file_name: null },
  });
  store.close();
});
afterEach(() => home.cleanup());

describe('homunculus dashboard', () => {
  it('refuses any address but 127.0.0.1, and a port that is not one', () => {
    const wide = cli(home.path, ['dashboard', '--host', '0.0.0.0', '--no-open']);
    expect(wide.status).toBe(2);
    expect(wide.stderr).toMatch(/serves 127\.0\.0\.1 only, not 0\.0\.0\.0/);
    const port = cli(home.path, ['dashboard', '--port', 'http', '--no-open']);
    expect(port.status).toBe(2);
    expect(port.stderr).toMatch(/--port must be a whole number/);
    // A typo in --home would serve (and begin) an empty store there: refused, nothing created.
    const typo = join(home.path, 'no-such-home');
    const missing = cli(home.path, ['dashboard', '--home', typo, '--no-open']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain(`There is no Homunculus store at ${typo}.`);
    expect(existsSync(typo)).toBe(false);
  });

  it('stops cleanly on Ctrl-C, with a page still listening for changes, and leaves nothing listening', async () => {
    const { url, login, stop } = await startDashboardCli(home.path);
    expect((await fetch(`${url}/`)).status).toBe(200);
    const token = login.split('#token=')[1];
    const session = await fetch(`${url}/api/session`, {
      method: 'POST',
      headers: { Origin: url, 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    const events = await fetch(`${url}/api/events`, {
      headers: { Cookie: (session.headers.get('set-cookie') ?? '').split(';')[0] as string },
    });
    expect(events.status).toBe(200);
    expect(await stop()).toBe(0);
    await expect(fetch(`${url}/`)).rejects.toThrow();
  });

  it.runIf(hasChromium('the dashboard in a real browser (cli/dashboard.e2e.test.ts)'))(
    'signs in from the page it opens the browser on, keeps the token out of the address bar, and corrects an instinct',
    async () => {
      const { url, login, page: loginPage, stop } = await startDashboardCli(home.path);
      // The browser is opened on an owner-only file, never on the link: arguments are public.
      expect(statSync(loginPage).mode & 0o777).toBe(0o600);
      expect(readFileSync(loginPage, 'utf8')).toContain(login);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(`file://${loginPage}`);
        // The default view: the project, and what a session there starts with today.
        await page.locator('#injected').waitFor();
        expect(page.url()).toBe(`${url}/`);
        await expect(page.locator('#injected').textContent()).resolves.toMatch(/When you need to run the tests in webapp: Use `npm test`/);
        await expect(page.locator('#project option').first().textContent()).resolves.toMatch(/^webapp \(1 session, last 2026-01-05\)/);
        // "What a prompt here would get": the prompt hook's answer, and nothing for an unrelated prompt.
        await page.locator('#try-prompt').fill('can you run the tests before we merge?');
        await page.getByRole('button', { name: 'Show' }).click();
        await expect
          .poll(() => page.locator('#prompt-injected').textContent())
          .toMatch(/When you need to run the tests in webapp: Use `npm test`/);
        await page.screenshot({ path: screenshotPath('dashboard-project'), fullPage: true });
        await page.locator('#try-prompt').fill("what's the weather like?");
        await page.getByRole('button', { name: 'Show' }).click();
        await expect.poll(() => page.locator('#prompt-injected').textContent()).toBe('Nothing: this prompt gets no memory.');
        await page.getByRole('button', { name: 'Overview' }).click();
        const session = page.locator('tr[data-session="s1"]');
        await session.waitFor();
        await expect(session.textContent()).resolves.toMatch(/^2026-01-05 11:00webappclaude-code0Added the login page\.$/);
        await page.screenshot({ path: screenshotPath('dashboard-overview'), fullPage: true });
        await page.getByRole('button', { name: 'Everything learned' }).click();
        const row = page.locator(`tr[data-pattern="${KEY}"]`);
        await row.waitFor();
        await expect(row.locator('td').first().textContent()).resolves.toBe('when you need to run the tests in webapp');
        await expect(page.locator('#summary').textContent()).resolves.toMatch(/^1 instinct, 0 convictions/);
        await page.screenshot({ path: screenshotPath('dashboard-instincts'), fullPage: true });
        // Keyboard: the correction buttons are reachable and work with Enter.
        await row.getByRole('button', { name: /^wrong: when you need to run the tests in webapp: / }).focus();
        await page.keyboard.press('Enter');
        // The page's CSP forbids evaluated strings: poll from the test side.
        await expect
          .poll(() => page.locator('#message').textContent())
          .toMatch(/^Marked “when you need to run the tests in webapp” wrong: confidence 0\.50 to 0\.20/);
        // The row says so: at the floor, the score alone would not.
        await expect.poll(() => row.locator('.verdict').textContent()).toBe(' marked wrong: no longer given to agents');
        // A double click is one correction, not two.
        await row.getByRole('button', { name: /^strong: when you need to run the tests in webapp: / }).dblclick();
        await expect.poll(() => page.locator('#message').textContent()).toMatch(/ strong: confidence 0\.20 to 0\.30/);
        await expect
          .poll(() => row.getByRole('button', { name: /^strong: when you need to run the tests in webapp: / }).isEnabled())
          .toBe(true);
        const store = openStore({ home: home.path });
        try {
          const instinct = store.instincts.get(KEY);
          expect(instinct?.confidence).toBe(0.3);
          const feedback = store.instincts.events(instinct?.id ?? 0, { kinds: ['feedback'] });
          expect(feedback.map((e) => `${e.source} ${e.detail}`)).toEqual(['dashboard wrong', 'dashboard strong']);
        } finally {
          store.close();
        }
        // Live: what another process stores shows up without a reload, within 2 s.
        const writer = openStore({ home: home.path });
        try {
          observe(writer, {
            pattern: 'pref:webapp/lint=npm-run-lint',
            trigger: 'when you need to lint in webapp',
            action: 'Use `npm run lint`.',
          });
        } finally {
          writer.close();
        }
        await page.locator('tr[data-pattern="pref:webapp/lint=npm-run-lint"]').waitFor({ timeout: 2000 });
        // The same link a second time signs nobody in.
        const second = await browser.newPage();
        await second.goto(login);
        await expect.poll(() => second.locator('#message').textContent()).toMatch(/already used/);
        // Signed out: said once, with the way in; no sections to click, nothing left loading.
        const bare = await browser.newPage();
        await bare.goto(url);
        await expect.poll(() => bare.locator('#message').textContent()).toMatch(/^Not signed in\. Open the link/);
        await expect(bare.locator('#summary').textContent()).resolves.toBe('Not signed in.');
        await expect(bare.locator('nav').count()).resolves.toBe(0);
        await expect(bare.locator('#message').getAttribute('class')).resolves.toBe('error');
        // A correction's result reads as done, not as an error.
        await expect(page.locator('#message').getAttribute('class')).resolves.toBeNull();
        // Signing out ends the session on the server: the page's own key no longer opens anything.
        const headers = await pageAuth(page, url);
        await page.getByRole('button', { name: 'Sign out' }).click();
        await expect
          .poll(() => page.locator('#message').textContent())
          .toMatch(/^Signed out\. For a new login link, run `homunculus dashboard` again \(this one keeps running\)/);
        await expect(page.locator('nav').count()).resolves.toBe(0);
        expect((await page.request.get(`${url}/api/overview`, { headers })).status()).toBe(401);
      } finally {
        await browser.close();
        await stop();
      }
    },
    60_000,
  );
  it.runIf(hasChromium('the dashboard in a real browser (cli/dashboard.e2e.test.ts)'))(
    'says when a list goes on past what it shows, and shows more on request',
    async () => {
      const store = openStore({ home: home.path });
      store.transaction(() => {
        for (let i = 0; i < 501; i++)
          observe(store, {
            pattern: `pref:webapp/rule=r${i}`,
            trigger: `when rule ${i} applies`,
            action: `Do ${i}.`,
            project: PROJECT,
            occurrences: 2,
          });
        // Seen once, it is listed after the 500 shown first.
        observe(store, { pattern: 'pref:webapp/rule=last', trigger: 'when the last rule applies', action: 'Do it.', project: PROJECT });
      });
      store.close();
      const { login, stop } = await startDashboardCli(home.path);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(login);
        await page.getByRole('button', { name: 'Everything learned' }).click();
        await expect.poll(() => page.locator('#instincts tbody tr').count()).toBe(500);
        await expect(page.locator('p.more').textContent()).resolves.toMatch(/^The first 500 are shown; there are more\./);
        // Find searches every rule learned, not the 500 shown: the last rule is past them.
        await page.locator('#instincts-find').fill('Last rule');
        await expect.poll(() => page.locator('#instincts tbody tr').count()).toBe(1);
        await expect(page.getByRole('status').filter({ hasText: 'hold' }).textContent()).resolves.toBe(
          '1 of all the rules learned holds “Last rule”.',
        );
        await page.locator('#instincts-find').fill('applies');
        await expect
          .poll(() => page.getByRole('status').filter({ hasText: 'hold' }).textContent())
          .toBe('More than 500 of all the rules learned hold “applies”.');
        await page.locator('#instincts-find').fill('');
        await expect.poll(() => page.locator('#instincts tbody tr').count()).toBe(500);
        await page.getByRole('button', { name: 'Show up to 4,999' }).click();
        await expect.poll(() => page.locator('#instincts tbody tr').count()).toBe(503);
        await expect(page.locator('p.more').count()).resolves.toBe(0);
        // Finding a rule among them by its words.
        await page.locator('#instincts-find').fill('Rule 420');
        await expect.poll(() => page.locator('#instincts tbody tr').count()).toBe(1);
        await expect(page.getByRole('status').filter({ hasText: 'hold' }).textContent()).resolves.toBe(
          '1 of all the rules learned holds “Rule 420”.',
        );
        await page.locator('#instincts-find').fill('');
        await expect.poll(() => page.locator('#instincts tbody tr').count()).toBe(503);
        // At a phone's width the table scrolls on its own; the page does not scroll sideways.
        await page.setViewportSize({ width: 375, height: 800 });
        await expect.poll(() => page.locator('html').evaluate((el: { scrollWidth: number }) => el.scrollWidth)).toBeLessThanOrEqual(375);
      } finally {
        await browser.close();
        await stop();
      }
    },
    60_000,
  );
});

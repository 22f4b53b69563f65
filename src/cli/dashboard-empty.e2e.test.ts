/** The dashboard on a store with nothing in it, then with instincts but no session: it says what to run, and shows what is there. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { withDashboardPage } from '../test-support/dashboard.js';
import { hasChromium } from '../test-support/shared.js';

let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir();
});
afterEach(() => home.cleanup());

describe('the dashboard before anything was learned', () => {
  it.runIf(hasChromium('the dashboard in a real browser (cli/dashboard-empty.e2e.test.ts)'))(
    'says what to run on an empty store, and shows instincts on the Project page when there is no session',
    () =>
      withDashboardPage(
        home.path,
        undefined,
        async (page) => {
          await page.getByRole('button', { name: 'Everything learned' }).click();
          await expect.poll(() => page.locator('#instincts-empty').textContent()).toMatch(/^Nothing learned yet\. Run homunculus sync /);
          await expect(page.locator('#instincts').count()).resolves.toBe(0);
          // An instinct recorded by hand: still no session, so no project.
          const store = openStore({ home: home.path });
          observe(store, { pattern: 'pref:pkg=pnpm', trigger: 'when installing packages', action: 'Use pnpm, never npm.' });
          store.close();
          await page.getByRole('button', { name: 'Project' }).click();
          await expect.poll(() => page.locator('#no-sessions').textContent()).toMatch(/^No sessions yet, so no project to show/);
          await expect.poll(() => page.locator('#instincts tbody tr').count()).toBe(1);
          await expect(page.locator('#instincts tbody tr').textContent()).resolves.toContain('Use pnpm, never npm.');
        },
        'nav',
      ),
    60_000,
  );
});

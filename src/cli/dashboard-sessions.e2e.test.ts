import type { Locator, Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addFact } from '../graph/add-fact.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { launchChromium, screenshotPath, startDashboardCli } from '../test-support/dashboard.js';
import { startMessagesStub } from '../test-support/messages-stub.js';
import { seedSessions } from '../test-support/sessions.js';
import { hasChromium } from '../test-support/shared.js';

const MODEL = { provider: 'anthropic', model: 'claude-haiku-4-5', apiKeyEnv: 'HOMUNCULUS_CHAT_TEST_KEY' };
let home: ReturnType<typeof tempDir>;
// The server runs on today's clock: the seeded sessions end yesterday, inside every section's 30 days.
const shiftDays = Math.floor((Date.now() - Date.parse('2026-02-28T00:00:00Z')) / 86_400_000) - 1;
const yesterday = new Date(Date.parse('2026-02-28T00:00:00Z') + shiftDays * 86_400_000).toISOString().slice(0, 10);

beforeEach(() => {
  home = tempDir();
  const store = openStore({ home: home.path });
  try {
    seedSessions(store, home.path, shiftDays);
    addFact(store, {
      source: { name: 'webapp', type: 'project' },
      target: { name: 'pnpm' },
      relation: 'uses',
      description: 'The webapp installs its packages with pnpm, never npm',
    });
  } finally {
    store.close();
  }
});
afterEach(() => home.cleanup());

/** WCAG contrast of an element's text against the first opaque background behind it. */
async function contrast(el: Locator): Promise<number> {
  const [fg, bg] = await el.evaluate((node) => {
    // Runs in the page; the test's own types know no DOM.
    type Styled = { parentElement: Styled | null };
    const style = (e: Styled) =>
      (globalThis as unknown as { getComputedStyle(e: Styled): { color: string; backgroundColor: string } }).getComputedStyle(e);
    for (let n: Styled | null = node as unknown as Styled; n; n = n.parentElement) {
      const b = style(n).backgroundColor;
      if (b && b !== 'rgba(0, 0, 0, 0)' && b !== 'transparent') return [style(node as unknown as Styled).color, b];
    }
    return [style(node as unknown as Styled).color, 'rgb(255, 255, 255)'];
  });
  const lum = (rgb: string) => {
    const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x) as [number, number];
  return (a + 0.05) / (b + 0.05);
}

/** Every selector's first element has text readable on its background (at least 4.5:1). */
async function readable(page: Page, selectors: readonly string[]): Promise<void> {
  for (const selector of selectors)
    expect([selector, await contrast(page.locator(selector).first())]).toEqual([selector, expect.toSatisfy((r: number) => r >= 4.5)]);
}

describe('the dashboard session sections', () => {
  it.runIf(hasChromium('the session sections in a real browser (cli/dashboard-sessions.e2e.test.ts)'))(
    'shows signals and threads, a transcript, the memory chat with its sources, the tool timeline and a keyboard replay',
    async () => {
      const stub = await startMessagesStub(() => ({ text: JSON.stringify({ answer: 'The webapp uses pnpm [1] [7].' }) }));
      // The dashboard's environment holds the key the configured model names (cliEnv passes this process's).
      process.env[MODEL.apiKeyEnv] = 'sk-test';
      const { login, stop } = await startDashboardCli(home.path);
      delete process.env[MODEL.apiKeyEnv];
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        await page.goto(login);
        await page.locator('#project').waitFor();

        // Overview: signals per day (bars, and the same numbers as a table) and the thread s1 -> s2.
        await page.getByRole('button', { name: 'Overview' }).click();
        await page.locator('#threads').waitFor();
        await expect(
          page.locator('#threads li[data-session]').evaluateAll((els) => els.map((e) => e.getAttribute('data-session'))),
        ).resolves.toEqual(['s1', 's2']);
        await expect(page.locator('#signals [data-signal="observations"] .total').textContent()).resolves.toBe('10');
        await expect(page.locator('#signals [data-signal="sessions"] .total').textContent()).resolves.toBe('3');
        await page.screenshot({ path: screenshotPath('dashboard-overview-signals'), fullPage: true });
        await readable(page, ['#signals dt', '#threads .who', '#threads .when', 'p.note']);
        await page.getByRole('button', { name: 'Show as a table' }).click();
        const row = page.locator('#signals-table tr', { hasText: yesterday });
        await expect(row.locator('td').allTextContents()).resolves.toEqual([yesterday, '2', '1', '0', '0', '0']);

        // Chat: the latest session's transcript, another chosen, and a question answered with its sources.
        await page.getByRole('button', { name: 'Chat' }).click();
        await page.locator('#transcript .turn').first().waitFor();
        await expect(page.locator('#transcript .prompt').first().textContent()).resolves.toMatch(/style the login page/);
        await page.locator('#transcript-session').selectOption('s1');
        await expect.poll(() => page.locator('#transcript .turn').count()).toBe(2);
        await expect(page.locator('#transcript .turn').first().locator('.calls li').allTextContents()).resolves.toEqual([
          'Read /nonexistent/webapp/src/app.tsx ok',
          'Write /nonexistent/webapp/src/login.tsx ok',
          'Bash pnpm test error: 1 test failed: login renders',
        ]);
        await page.locator('#chat-question').fill('which package manager does the webapp use?');
        await page.keyboard.press('Enter');
        await page.locator('#chat-sources').waitFor();
        await expect(page.locator('#chat-reply .note').first().textContent()).resolves.toMatch(/No model is configured/);
        await expect(page.locator('#source-1').textContent()).resolves.toMatch(
          /^\[1\] webapp uses pnpm \(fact \d+, .*The webapp installs its packages with pnpm/,
        );
        // With a model configured (read on every question), its answer cites the sources, linked.
        writeFileSync(join(home.path, 'config.json'), JSON.stringify({ llm: { ...MODEL, baseUrl: `${stub.baseUrl}/v1` } }));
        await page.getByRole('button', { name: 'Ask' }).click();
        await expect.poll(() => page.locator('#chat-answer').textContent()).toBe('The webapp uses pnpm [1].');
        expect(stub.requests.at(-1)?.raw).toMatch(/\[1\] webapp uses pnpm/);
        await expect(page.locator('#source-1.cited').count()).resolves.toBe(1);
        await page.getByRole('link', { name: 'source 1' }).click();
        expect(page.url()).toMatch(/#source-1$/);
        await page.screenshot({ path: screenshotPath('dashboard-chat'), fullPage: true });
        await readable(page, ['#chat-reply .note', '#source-1 .kind', '#transcript .prompt', '#transcript .outcome-error .error']);

        // Tools: the per-day and per-session counts, the failure marked.
        await page.getByRole('button', { name: 'Tools' }).click();
        await page.locator('#tools-sessions').waitFor();
        await expect(page.locator('#tools-sessions tr[data-key="s1"] td').allTextContents()).resolves.toEqual([
          's1',
          '4',
          '1',
          'Read 1, Write 1, Bash 2 (1 failed)',
        ]);
        await expect(page.locator('#tools-failures td').allTextContents()).resolves.toContain('error: 1 test failed: login renders');
        await expect(page.locator('svg.bars circle.mark').count()).resolves.toBe(1);
        await page.screenshot({ path: screenshotPath('dashboard-tools'), fullPage: true });
        await readable(page, ['#tools-sessions tr.has-failures td:nth-child(3)', 'ul.legend li', '#tools-failures td']);

        // Replay: reached by keyboard, stepped with the arrow keys and the slider.
        await page.getByRole('button', { name: 'Replay' }).focus();
        await page.keyboard.press('Enter');
        await page.locator('#replay-session').selectOption('s1');
        await expect.poll(() => page.locator('#replay-position').textContent()).toBe('1 of 8');
        await page.locator('#replay').focus();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowRight');
        await expect(page.locator('#replay-position').textContent()).resolves.toBe('3 of 8');
        await expect(page.locator('#replay-tool').textContent()).resolves.toBe('Read');
        await page.keyboard.press('ArrowLeft');
        await expect(page.locator('#replay-kind').textContent()).resolves.toBe('prompt');
        await page.locator('#replay-slider').fill('5');
        await expect(page.locator('#replay-position').textContent()).resolves.toBe('5 of 8');
        await expect(page.locator('#replay-outcome').textContent()).resolves.toBe('error: 1 test failed: login renders');
        await page.getByRole('button', { name: 'Next →' }).click();
        await expect(page.locator('#replay-input').textContent()).resolves.toBe('fix the failing test');
        await page.screenshot({ path: screenshotPath('dashboard-replay'), fullPage: true });
        await readable(page, ['#replay-outcome', '#replay-position', 'dl.step dt', '.replay-controls button']);
      } finally {
        await browser.close();
        await stop();
        await stub.close();
      }
    },
    90_000,
  );
});

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMemory } from '../app/memory.js';
import { invoke } from '../app/operation.js';
import { addFact } from '../graph/add-fact.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { launchChromium, screenshotPath, startDashboardCli, unreadableText } from '../test-support/dashboard.js';
import { startMessagesStub } from '../test-support/messages-stub.js';
import { seedSessions } from '../test-support/sessions.js';
import { hasChromium } from '../test-support/shared.js';

const MODEL = { provider: 'anthropic', model: 'claude-haiku-4-5', apiKeyEnv: 'HOMUNCULUS_CHAT_TEST_KEY' };
let home: ReturnType<typeof tempDir>;
// The server runs on today's clock: the seeded sessions end yesterday, inside every section's 30 days.
const shiftDays = Math.floor((Date.now() - Date.parse('2026-02-28T00:00:00Z')) / 86_400_000) - 1;
const yesterday = new Date(Date.parse('2026-02-28T00:00:00Z') + shiftDays * 86_400_000).toISOString().slice(0, 10);

beforeEach(async () => {
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
    // A memory kept for itself (not mirrored from a session), which the chat lets the user forget.
    await invoke(addMemory, { store, env: {} }, { text: 'The webapp splits its packages into pnpm workspaces', embed: false });
  } finally {
    store.close();
  }
});
afterEach(() => home.cleanup());

const dayBefore = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

describe('the dashboard session sections', () => {
  it.runIf(hasChromium('the session sections in a real browser (cli/dashboard-sessions.e2e.test.ts)'))(
    'shows signals and threads, a transcript, the memory chat with its sources, the tool timeline and a keyboard replay',
    async () => {
      const stub = await startMessagesStub(() => ({ text: JSON.stringify({ answer: 'The webapp uses pnpm [1] [7].' }) }));
      // The dashboard's environment holds the key the configured model names.
      const { login, stop } = await startDashboardCli(home.path, { [MODEL.apiKeyEnv]: 'sk-test' });
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
        expect(await unreadableText(page)).toEqual([]);
        await page.getByRole('button', { name: 'Show as a table' }).click();
        const row = page.locator('#signals-table tr', { hasText: yesterday });
        await expect(row.locator('td').allTextContents()).resolves.toEqual([yesterday, '2', '1', '0', '0', '0']);
        // The range can end on another day of the stored history (imported sessions may be months old).
        const to = page.locator('#signals-to');
        await expect(to.getAttribute('max')).resolves.toBe(yesterday);
        await to.fill(dayBefore(yesterday));
        await expect.poll(() => page.locator('#signals-title').textContent()).toContain(`days to ${dayBefore(yesterday)}`);
        await expect(page.locator('#signals-table tr', { hasText: yesterday }).count()).resolves.toBe(0);

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
        expect(await unreadableText(page)).toEqual([]);
        // A memory kept for itself can be forgotten from its source (a session's, mirrored, cannot).
        const note = page.locator('#chat-sources li', { hasText: 'pnpm workspaces' });
        await expect(
          page
            .locator('#chat-sources li', { hasText: 'sessions/' })
            .getByRole('button', { name: /^forget/ })
            .count(),
        ).resolves.toBe(0);
        await note.getByRole('button', { name: /^forget memory memories\// }).click();
        await note.getByRole('button', { name: 'Yes, forget' }).click();
        await expect.poll(() => page.locator('#message').textContent()).toMatch(/^Forgot the memory memories\//);
        const reader = openStore({ home: home.path });
        try {
          expect(reader.documents.count('memories')).toBe(0);
        } finally {
          reader.close();
        }

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
        expect(await unreadableText(page)).toEqual([]);

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
        expect(await unreadableText(page)).toEqual([]);
      } finally {
        await browser.close();
        await stop();
        await stub.close();
      }
    },
    90_000,
  );
});

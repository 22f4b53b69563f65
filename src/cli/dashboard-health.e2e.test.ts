/** The Memory, Security and Telemetry sections in a real browser, on a seeded home. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { addFact } from '../app/graph.js';
import { feedback, observe } from '../app/instincts.js';
import { invoke } from '../app/operation.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { launchChromium, screenshotPath, startDashboardCli, unreadableText } from '../test-support/dashboard.js';
import { hasChromium } from '../test-support/shared.js';

const SECRET_CONTEXT = 'export AWS_SECRET_ACCESS_KEY=';
let home: ReturnType<typeof tempDir>;

const call = (event: string, ms: number, outcome = 'ok') =>
  JSON.stringify({ ts: new Date().toISOString(), event, agent: 'claude-code', ms, outcome });

beforeEach(() => {
  home = tempDir();
  const store = openStore({ home: home.path });
  const ctx = { store, env: {} };
  try {
    invoke(observe, ctx, { pattern: 'pref:pkg=pnpm', count: 6 });
    invoke(observe, ctx, { pattern: 'seq:lint-test', count: 2 });
    invoke(observe, ctx, { pattern: 'pref:editor=vim' });
    invoke(feedback, ctx, { pattern: 'pref:editor=vim', verdict: 'wrong' });
    invoke(addFact, ctx, { source: 'webapp', relation: 'uses', target: 'vitest', description: 'webapp tests with vitest' });
    invoke(addFact, ctx, { source: 'webapp', relation: 'uses', target: 'pnpm', description: 'webapp installs with pnpm' });
    const obs = (id: string, event: string, input: string) =>
      store.observations.insert({ source: 'claude-code', session_id: 's1', tool_use_id: id, ts: new Date().toISOString(), event, input });
    obs('t1', 'tool', `${SECRET_CONTEXT}[REDACTED:aws-secret] && deploy`);
    obs('p1', 'prompt', 'use my token [REDACTED:github-token] for the release');
  } finally {
    store.close();
  }
  mkdirSync(`${home.path}/logs`, { recursive: true });
  const calls = [call('prompt', 40), call('prompt', 60), call('prompt', 80), call('observe', 5), call('observe', 7), 'not a call'];
  writeFileSync(`${home.path}/logs/hook-calls.jsonl`, `${[...calls, call('stop', 15_200, 'timeout')].join('\n')}\n`);
  writeFileSync(`${home.path}/logs/hooks.log`, `${new Date().toISOString()} prompt (claude-code) failed: database is locked\n  at x\n`);
});
afterEach(() => home.cleanup());

/** Opens a section from the keyboard: its nav button focused, then Enter. */
async function open(page: Page, name: string, ready: string): Promise<void> {
  await page.getByRole('button', { name, exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.locator(ready).waitFor();
}

const text = (page: Page, selector: string) => page.locator(selector).textContent();

describe('the dashboard health sections', () => {
  it.runIf(hasChromium('the dashboard health sections (cli/dashboard-health.e2e.test.ts)'))(
    'show the tiers, quality, diff, redactions and hook telemetry of the store, readable and usable from the keyboard',
    async () => {
      const { login, stop } = await startDashboardCli(home.path);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await page.goto(login);
        await page.locator('#summary').filter({ hasText: 'instincts' }).waitFor();

        await open(page, 'Memory', '#diff');
        await expect(page.locator('[data-tier="T2"] svg').getAttribute('aria-label')).resolves.toMatch(/faded instincts 1$/);
        await expect(page.locator('[data-tier="T3"] svg').getAttribute('aria-label')).resolves.toMatch(
          /current facts 2, entities stored 3$/,
        );
        await expect(page.locator('#quality tbody tr').count()).resolves.toBe(8);
        await expect(text(page, '#quality tr[data-metric="dedup_ratio"]')).resolves.toBe('Dedup ratio0below 0.3✓ healthy');
        await expect(text(page, '#quality tr[data-metric="dream_efficiency"]')).resolves.toMatch(/above 0\.1not measured yet$/);
        await expect(text(page, '#diff-created-title')).resolves.toBe('Instincts created: 3');
        // The instinct in its own words (this one has only its key's body), the key on hover.
        const vim = page.locator('#diff-created tr[data-pattern="pref:editor=vim"]');
        await expect(text(page, '#diff-created tr[data-pattern="pref:editor=vim"]')).resolves.toBe('editor=vimnew, 0.201create, feedback');
        await expect(vim.locator('td').first().getAttribute('title')).resolves.toBe('pref:editor=vim');
        await expect(text(page, '#diff-faded-title')).resolves.toMatch(/^Instincts that faded .*: \d+$/);
        await expect(text(page, '#diff-added-title')).resolves.toBe('Facts added: 2');
        expect(await unreadableText(page)).toEqual([]);
        await page.screenshot({ path: screenshotPath('dashboard-memory'), fullPage: true });
        // A range before anything was stored: typed, then submitted with Enter.
        await page.locator('#diff-from').fill('2020-01-01');
        await page.locator('#diff-to').fill('2020-01-31');
        await page.locator('#diff-to').press('Enter');
        await expect.poll(() => text(page, '#diff-created-title')).toBe('Instincts created: 0');
        await expect(text(page, '#diff-added-title')).resolves.toBe('Facts added: 0');

        await open(page, 'Security', '#redactions');
        await expect(text(page, '#redactions-summary')).resolves.toMatch(/^2 secrets hidden before storing/);
        await expect(text(page, '#redactions tr[data-kind="aws-secret"]')).resolves.toBe('aws-secret1100');
        await expect(text(page, '#redactions tr[data-kind="github-token"]')).resolves.toBe('github-token1010');
        await expect(text(page, '#security-hooks-summary')).resolves.toBe('0 failed, 1 timed out, 1 over the 15 s budget.');
        await expect(text(page, '#security-hooks tr[data-event="stop"]')).resolves.toMatch(/stopclaude-codetimed out15200yes$/);
        await expect(page.locator('main').textContent()).resolves.not.toContain(SECRET_CONTEXT);
        expect(await unreadableText(page)).toEqual([]);
        await page.screenshot({ path: screenshotPath('dashboard-security'), fullPage: true });

        await open(page, 'Telemetry', '#telemetry-events');
        await expect(text(page, '#telemetry-summary')).resolves.toMatch(/^6 hook calls since .*; 1 unreadable line skipped\.$/);
        await expect(text(page, '#telemetry-events tr[data-event="prompt"]')).resolves.toBe('prompt3300060808080');
        await expect(text(page, '#telemetry-events tr[data-event="stop"]')).resolves.toBe('stop1001115200152001520015200');
        await expect(page.locator('figure svg.hbars').getAttribute('aria-label')).resolves.toMatch(/^p95 latency by hook: prompt 80 ms/);
        await expect(text(page, '#telemetry-log')).resolves.toMatch(/prompt \(claude-code\) failed: database is locked$/);
        expect(await unreadableText(page)).toEqual([]);
        await page.screenshot({ path: screenshotPath('dashboard-telemetry'), fullPage: true });
      } finally {
        await browser.close();
        await stop();
      }
    },
    60_000,
  );
});

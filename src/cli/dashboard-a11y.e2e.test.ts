/**
 * Every section of the dashboard, reached and used with the keyboard alone, with readable
 * text: each control in a section can be focused with Tab, and every text has a WCAG
 * contrast of at least 4.5:1 on what lies behind it (3:1 for large text). Sections are
 * found from the page's own navigation, so a new section is checked without a new test.
 */
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { unreadableText, withDashboardPage } from '../test-support/dashboard.js';
import { hasChromium } from '../test-support/shared.js';

const PROJECT = 'bbbbbbbbbbbbbbbb';
let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir();
  const store = openStore({ home: home.path });
  observe(store, {
    pattern: 'pref:shop/test=npm-test',
    trigger: 'when you need to run the tests in shop',
    action: 'Use `npm test`.',
    project: PROJECT,
    occurrences: 5,
  });
  // Long tokens, as learned rules hold (API paths, module paths): they must not push the buttons off a laptop's screen.
  observe(store, {
    pattern: 'fix:shop/pr-comments',
    trigger: 'when reading or answering pull requests (PRs), their comments, replies through the GitHub API in shop',
    action:
      'Call `gh api repos/acme/shop/pulls/{n}/comments`, `gh api -X POST repos/acme/shop/pulls/{n}/comments/{n}/replies -f body=…`, `gh api -X PATCH repos/acme/shop/pulls/comments/{n} -f body=…`.',
    project: PROJECT,
    occurrences: 5,
  });
  store.sessions.save({
    ...{ id: 'a11y-1', source: 'claude-code', project: PROJECT, project_name: 'shop', cwd: '/nonexistent/shop' },
    ...{ started_at: '2026-02-01T09:00:00.000Z', ended_at: '2026-02-01T10:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
    // An unbreakable token, as a session summary may hold, must not widen the page.
    ...{
      files_touched: '[]',
      summary: `Fixed the basket. ${'STRIPE_KEY=' + 'X'.repeat(80)}`,
      continues_from: null,
      transcript_path: null,
      file_name: null,
    },
  });
  store.close();
});
afterEach(() => home.cleanup());

/**
 * Focus probes, run in the page as script text (see unreadableText). A control with an id is
 * named by it alone: a select's text is its options, which change as the section loads.
 */
const label = `(el) => !el ? '' : el.id ? el.tagName + '#' + el.id : el.tagName + '|' + (el.getAttribute('aria-label') ?? el.textContent.trim().slice(0, 40))`;
const FOCUSED = `(${label})(document.activeElement)`;
const CONTROLS = `[...document.querySelectorAll('main button, main input, main select, main textarea, main a[href], main [tabindex="0"]')]
  .filter((el) => !el.hasAttribute('disabled') && el.getBoundingClientRect().width > 0).map(${label})`;

/** Words of up to 20 letters in a table cell that the layout cut across two lines, run in the page. */
const SPLIT_WORDS = `(() => {
  const cut = [];
  for (const cell of document.querySelectorAll('main th, main td')) {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.textContent.matchAll(/[A-Za-z0-9.]{2,20}/g)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) cut.push(m[0]);
      }
    }
  }
  return cut.slice(0, 5);
})()`;

/** What Tab reaches from the section's button onwards, and what it should reach. */
async function tabReach(page: Page, steps: number): Promise<{ reached: string[]; controls: string[] }> {
  const reached = new Set<string>();
  for (let i = 0; i < steps; i++) {
    await page.keyboard.press('Tab');
    reached.add(await page.evaluate<string>(FOCUSED));
  }
  return { reached: [...reached], controls: await page.evaluate<string[]>(CONTROLS) };
}

describe('the dashboard for keyboard users and readers', () => {
  it.runIf(hasChromium('the dashboard in a real browser (cli/dashboard-a11y.e2e.test.ts)'))(
    'reaches every section and every control in it with the keyboard, and every text is readable',
    () =>
      withDashboardPage(home.path, undefined, async (page) => {
        const sections = await page.locator('nav[aria-label="Sections"] button').allTextContents();
        expect(sections.length).toBeGreaterThanOrEqual(3);
        for (const [i, name] of sections.entries()) {
          // From the first section's button, Tab and then Enter opens the section.
          await page.locator('nav[aria-label="Sections"] button').first().focus();
          for (let k = 0; k < i; k++) await page.keyboard.press('Tab');
          await page.keyboard.press('Enter');
          await expect.poll(() => page.getByRole('button', { name, exact: true }).getAttribute('aria-pressed')).toBe('true');
          await expect.poll(() => page.locator('main').textContent()).not.toMatch(/Loading…/);
          expect(await unreadableText(page), `unreadable text in ${name}`).toEqual([]);
          const { reached, controls } = await tabReach(page, 60);
          expect(
            controls.filter((c) => !reached.includes(c)),
            `controls Tab never reaches in ${name}`,
          ).toEqual([]);
        }
      }),
    90_000,
  );

  it.runIf(hasChromium('the dashboard at laptop widths (cli/dashboard-a11y.e2e.test.ts)'))(
    'keeps every button of a rule on screen at 1024 and 1280 px, the page not scrolling sideways',
    () =>
      withDashboardPage(home.path, { width: 1280, height: 800 }, async (page) => {
        for (const name of ['Everything learned', 'Project']) {
          await page.getByRole('button', { name, exact: true }).click();
          await page.locator('table.instincts button').first().waitFor();
          for (const width of [1280, 1024]) {
            await page.setViewportSize({ width, height: 800 });
            const fits = `(() => ({
              width: document.documentElement.scrollWidth,
              off: [...document.querySelectorAll('table.instincts button')].filter((b) => b.getBoundingClientRect().right > ${width}).map((b) => b.getAttribute('aria-label') ?? b.textContent).slice(0, 3),
            }))()`;
            await expect.poll(() => page.evaluate(fits), { message: `${name} at ${width} px` }).toEqual({ width, off: [] });
          }
        }
      }),
    90_000,
  );

  it.runIf(hasChromium('the dashboard at phone width (cli/dashboard-a11y.e2e.test.ts)'))(
    'fits a 390 px wide screen in every section: nothing widens the page',
    () =>
      withDashboardPage(home.path, { width: 390, height: 844 }, async (page) => {
        const sections = await page.locator('nav[aria-label="Sections"] button').allTextContents();
        for (const name of sections) {
          await page.getByRole('button', { name, exact: true }).click();
          await expect.poll(() => page.locator('main').textContent()).not.toMatch(/Loading…/);
          // What sticks out past the screen, elements and text alike (a table's own scrolled content aside), and the
          // page's width, read together once the section has settled (its data may come late on a loaded machine).
          const overflow = `(() => {
            const out = (el) => el && !(el.closest('table')?.getBoundingClientRect().right <= 392);
            const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > 392 && out(el));
            const texts = [];
            const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let n = walk.nextNode(); n; n = walk.nextNode()) {
              const range = document.createRange();
              range.selectNodeContents(n);
              if (range.getBoundingClientRect().right > 392 && out(n.parentElement)) texts.push(n.textContent.slice(0, 40));
            }
            return { width: document.documentElement.scrollWidth, wide: wide.map((el) => el.tagName + (el.id ? '#' + el.id : '')).slice(0, 5), texts: texts.slice(0, 5) };
          })()`;
          await expect.poll(() => page.evaluate(overflow), { timeout: 15_000, message: name }).toEqual({ width: 390, wide: [], texts: [] });
          // The table scrolls instead: no word of a table is cut across lines ("Too l call s"); a long token may be.
          expect(await page.evaluate<string[]>(SPLIT_WORDS), `words cut in ${name}`).toEqual([]);
        }
      }),
    90_000,
  );
});

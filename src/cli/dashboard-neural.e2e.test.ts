import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addFact } from '../graph/add-fact.js';
import { openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { launchChromium, pageAuth, screenshotPath, startDashboardCli } from '../test-support/dashboard.js';
import { hasChromium } from '../test-support/shared.js';

let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir();
  let now = '2026-01-01T09:00:00.000Z';
  const store = openStore({ home: home.path, clock: { now: () => new Date(now) } });
  const fact = (at: string, target: string, type: string, description: string) => {
    now = at;
    addFact(store, { source: { name: 'shop', type: 'project' }, target: { name: target, type }, relation: 'uses', description });
  };
  fact('2026-01-01T09:00:00.000Z', 'zod', 'library', 'shop validates its forms with zod');
  fact('2026-03-01T09:00:00.000Z', 'vitest', 'tool', 'shop runs its unit tests with vitest');
  fact('2026-03-02T09:00:00.000Z', 'postgres', 'tool', 'shop keeps orders in postgres');
  store.close();
});
afterEach(() => home.cleanup());

describe('the Neural section', () => {
  it.runIf(hasChromium('the Neural section in a real browser (cli/dashboard-neural.e2e.test.ts)'))(
    'draws the graph, opens a node from the list and from the canvas, and goes back in time with the slider',
    async () => {
      const { url, login, stop } = await startDashboardCli(home.path);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(login);
        await page.getByRole('button', { name: 'Neural' }).click();
        const counts = page.locator('#neural-counts');
        await expect.poll(() => counts.textContent()).toMatch(/^Showing 4 of 4 entities and 3 of 3 facts true on \d{4}-\d\d-\d\d\.$/);
        const canvas = page.locator('#neural-canvas');
        await expect.poll(() => canvas.getAttribute('data-state'), { timeout: 15_000 }).toBe('settled');
        expect(await canvas.getAttribute('data-drawn')).toBe('4');

        // Keyboard: the list of drawn entities opens the same panel as the canvas.
        await page.locator('#neural-list button', { hasText: /^zod$/ }).focus();
        await page.keyboard.press('Enter');
        await expect.poll(() => page.locator('#neural-detail-title').textContent()).toBe('zod');
        await expect(page.locator('#neural-timeline').textContent()).resolves.toMatch(/shop uses zod: shop validates its forms with zod/);
        // A fact of the timeline opens with its relation, confidence and validity.
        await page.locator('#neural-timeline button').first().click();
        await expect.poll(() => page.locator('#neural-fact').textContent()).toMatch(/Relationuses.*Confidence0\.\d\d.*Truefrom 2026-01-01/);

        // The canvas: clicking where it says its first node is opens that node.
        const [id, x, y] = ((await canvas.getAttribute('data-first')) ?? '').split(' ').map(Number);
        const name = await page.locator(`#neural-list button[data-entity="${id}"]`).textContent();
        await canvas.click({ position: { x: x as number, y: y as number } });
        await expect.poll(() => page.locator('#neural-detail-title').textContent()).toBe(name);
        // An edge: its relation, confidence and validity.
        const [, lx, ly] = ((await canvas.getAttribute('data-first-link')) ?? '').split(' ').map(Number);
        await canvas.click({ position: { x: lx as number, y: ly as number } });
        await expect.poll(() => page.locator('#neural-detail-title').textContent()).toMatch(/^Fact: shop uses (zod|vitest|postgres)$/);
        await expect(page.locator('#neural-fact').textContent()).resolves.toMatch(/Confidence0\.\d\d/);
        await page.screenshot({ path: screenshotPath('dashboard-neural'), fullPage: true });

        // Back to the first day: the later facts and the entities only they touch are gone.
        await page.locator('#neural-slider').focus();
        await page.keyboard.press('Home');
        await expect.poll(() => counts.textContent()).toBe('Showing 2 of 2 entities and 1 of 1 facts true on 2026-01-01.');
        // The tier map says what it counts: not every entity stored, as the Memory page does.
        await expect(page.locator('#neural-tiers figcaption').textContent()).resolves.toMatch(
          /^Facts by kind of memory\. 2 entities with a fact true on 2026-01-01, of 4 stored; \d+ communities\.$/,
        );
        await expect(page.locator('#neural-list').textContent()).resolves.not.toMatch(/vitest|postgres/);
        // The day of the second fact: two facts.
        for (let i = 0; i < 59; i++) await page.keyboard.press('ArrowRight');
        await expect.poll(() => counts.textContent()).toBe('Showing 3 of 3 entities and 2 of 2 facts true on 2026-03-01.');

        // Search narrows the graph to an entity and its neighbours.
        await page.locator('#neural-slider').press('End');
        await page.locator('#neural-search').fill('postg');
        await expect.poll(() => counts.textContent()).toMatch(/^Showing 2 of 4 entities and 1 of 3 facts/);

        // Bad input is refused with what is wrong, and nothing changes.
        const headers = await pageAuth(page, url);
        const bad = await page.request.get(`${url}/api/neural/view?at=last-tuesday`, { headers });
        expect(bad.status()).toBe(400);
        expect(((await bad.json()) as { error: string }).error).toMatch(/^at must be an ISO-8601 date/);
        expect((await page.request.get(`${url}/api/neural/view?expand=x`, { headers })).status()).toBe(400);
        expect((await page.request.get(`${url}/api/neural/facts/abc`, { headers })).status()).toBe(400);
        expect((await page.request.get(`${url}/api/neural/facts/999`, { headers })).status()).toBe(404);

        // A fact stored by another process: offered as a reload, not redrawn under the user's eyes.
        await page.locator('#neural-search').fill('');
        await expect.poll(() => counts.textContent()).toMatch(/^Showing 4 of 4 entities and 3 of 3 facts/);
        const writer = openStore({ home: home.path });
        try {
          addFact(writer, {
            source: { name: 'shop', type: 'project' },
            target: { name: 'redis', type: 'tool' },
            relation: 'uses',
            description: 'shop caches sessions in redis',
          });
        } finally {
          writer.close();
        }
        await page.locator('#neural-reload').click({ timeout: 5_000 });
        await expect.poll(() => counts.textContent()).toMatch(/^Showing 5 of 5 entities and 4 of 4 facts/);

        // Correcting from the graph: a fact opened here is invalidated after a confirmation.
        await page.locator('#neural-list button', { hasText: /^redis$/ }).click();
        await page.locator('#neural-timeline button').first().click();
        await page
          .locator('#neural-detail')
          .getByRole('button', { name: /^invalidate: fact \d+$/ })
          .click();
        await page.getByRole('button', { name: 'Yes, invalidate it' }).click();
        await expect.poll(() => page.locator('#message').textContent()).toMatch(/^Retracted “shop caches sessions in redis/);
        const reader = openStore({ home: home.path });
        try {
          const closed = reader.graph.facts.get(4);
          expect(closed).toMatchObject({ expired_reason: 'retracted' });
          expect(closed?.metadata).toMatchObject({ closed_by: 'dashboard' });
        } finally {
          reader.close();
        }
        // The detail reads the fact again: no longer held, so no more corrections offered.
        await expect
          .poll(() =>
            page
              .locator('#neural-detail')
              .getByRole('button', { name: /^invalidate: fact/ })
              .count(),
          )
          .toBe(0);
      } finally {
        await browser.close();
        await stop();
      }
    },
    90_000,
  );
});

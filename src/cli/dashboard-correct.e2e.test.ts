/**
 * Correcting memory from the dashboard in a real browser: edit an instinct's words, promote and
 * un-promote it, retract a fact, merge a duplicate and forget an instinct, each checked in the
 * database afterwards, with its event logged as the dashboard's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addFact } from '../app/graph.js';
import { invoke } from '../app/operation.js';
import { observe } from '../learn/instincts.js';
import { type Store, openStore } from '../store/store.js';
import { tempDir } from '../test-support/cli.js';
import { launchChromium, screenshotPath, startDashboardCli } from '../test-support/dashboard.js';
import { hasChromium } from '../test-support/shared.js';

const KEY = 'pref:webapp/test=npm-test';
const DUPLICATE = 'pref:webapp/test=npm-run-test';
const PROJECT = 'aaaaaaaaaaaaaaaa';
let home: ReturnType<typeof tempDir>;
let factId = 0;

beforeEach(() => {
  home = tempDir();
  const store = openStore({ home: home.path });
  observe(store, {
    pattern: KEY,
    trigger: 'when you run the tests in webapp',
    action: 'Use `npm test`.',
    project: PROJECT,
    occurrences: 4,
  });
  observe(store, { pattern: DUPLICATE, trigger: 'when testing webapp', action: 'Run `npm run test`.', project: PROJECT, occurrences: 2 });
  store.sessions.save({
    ...{ id: 's1', source: 'claude-code', project: PROJECT, project_name: 'webapp', cwd: '/nonexistent/webapp' },
    ...{ started_at: '2026-01-05T10:00:00.000Z', ended_at: '2026-01-05T11:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
    ...{ files_touched: '[]', summary: 'Added the login page.', continues_from: null, transcript_path: null, file_name: null },
  });
  // A later chat with the personal agent: a project of its own, with nothing learned yet. The
  // Project view still opens on the one where something was learned.
  store.sessions.save({
    ...{ id: 's2', source: 'homunculus-agent', project: 'bbbbbbbbbbbbbbbb', project_name: 'homunculus-agent', cwd: '/nonexistent/ws' },
    ...{ started_at: '2026-01-06T10:00:00.000Z', ended_at: '2026-01-06T11:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
    ...{ files_touched: '[]', summary: 'Chatted.', continues_from: null, transcript_path: null, file_name: null },
  });
  factId = invoke(
    addFact,
    { store, env: {} },
    { source: 'webapp', relation: 'uses', target: 'jest', targetType: 'library', description: 'webapp tests with jest', project: PROJECT },
  ).fact.id;
  store.close();
});
afterEach(() => home.cleanup());

/** Reads the store the dashboard writes, then closes it. */
function inStore<T>(read: (store: Store) => T): T {
  const store = openStore({ home: home.path });
  try {
    return read(store);
  } finally {
    store.close();
  }
}

const eventsOf = (store: Store, key: string) =>
  store.instincts.events(store.instincts.get(key)?.id ?? -1).map((e) => ({ kind: e.kind, source: e.source, detail: e.detail }));

describe('correcting memory from the dashboard', () => {
  it.runIf(hasChromium('correcting memory in a real browser (cli/dashboard-correct.e2e.test.ts)'))(
    'edits, promotes and un-promotes, retracts a fact, merges and forgets, each stored and logged as the dashboard',
    async () => {
      const { login, stop } = await startDashboardCli(home.path);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await page.goto(login);
        const message = () => page.locator('#message').textContent();

        // The Project view lists what it learned here, with the changes by hand on each.
        const row = page.locator(`#project-instincts tr[data-pattern="${KEY}"]`);
        await row.waitFor();
        await row.getByRole('button', { name: /^edit: when you / }).click();
        await row.getByLabel(/^trigger of when you /).fill('when you run the webapp tests');
        await row.getByLabel(/^action of when you /).fill('Use `npm test -- --run` (no watch mode).');
        await page.screenshot({ path: screenshotPath('dashboard-correct-edit'), fullPage: true });
        await row.getByRole('button', { name: 'Save' }).click();
        await expect.poll(message).toBe('Edited the trigger and action of “when you run the webapp tests”.');
        await expect.poll(() => row.locator('td').first().textContent()).toBe('when you run the webapp tests');
        inStore((store) => {
          expect(store.instincts.get(KEY)).toMatchObject({
            trigger: 'when you run the webapp tests',
            action: 'Use `npm test -- --run` (no watch mode).',
            evidence: 4,
          });
          const edit = eventsOf(store, KEY).find((e) => e.kind === 'edit');
          expect(edit?.source).toBe('dashboard');
          expect(JSON.parse(edit?.detail ?? '{}')).toEqual({
            trigger: { from: 'when you run the tests in webapp', to: 'when you run the webapp tests' },
            action: { from: 'Use `npm test`.', to: 'Use `npm test -- --run` (no watch mode).' },
            title: { from: 'webapp/test=npm-test', to: 'when you run the webapp tests' },
          });
        });

        // An empty trigger is refused with the server's words, and nothing changes.
        await row.getByRole('button', { name: /^edit: when you / }).click();
        await row.getByLabel(/^trigger of when you /).fill('   ');
        await row.getByRole('button', { name: 'Save' }).click();
        await expect.poll(message).toMatch(/^trigger must not be empty/);
        await row.getByRole('button', { name: 'Cancel' }).click();
        expect(inStore((store) => store.instincts.get(KEY)?.trigger)).toBe('when you run the webapp tests');

        // With the keyboard: the form takes the focus, Escape closes it, and the edit button has it back.
        const focused = () => page.evaluate<string | null>(`document.activeElement?.getAttribute('aria-label') ?? null`);
        await row.getByRole('button', { name: /^edit: when you / }).click();
        await expect.poll(focused).toMatch(/^trigger of when you /);
        await page.keyboard.press('Escape');
        await expect.poll(focused).toMatch(/^edit: when you /);

        // Promote, then un-promote.
        await row.getByRole('button', { name: /^promote: when you / }).click();
        // By hand, before the rule would: the page says which bar it had not met.
        await expect
          .poll(message)
          .toMatch(/^Promoted “when you run the webapp tests” to a conviction by hand; the rule would not have yet \(.*confidence.*\)\.$/);
        await row.getByRole('button', { name: /^un-promote: when you / }).waitFor();
        await expect.poll(() => page.locator('#project-counts').textContent()).toMatch(/1 conviction\.$/);
        inStore((store) => {
          expect(store.instincts.get(KEY)?.promoted_at).not.toBeNull();
          expect(store.instincts.convictions().map((c) => [c.pattern, c.rule])).toEqual([
            [KEY, 'Use `npm test -- --run` (no watch mode).'],
          ]);
        });
        await row.getByRole('button', { name: /^un-promote: when you / }).click();
        await expect.poll(message).toBe('Un-promoted “when you run the webapp tests”: no longer a conviction.');
        await row.getByRole('button', { name: /^promote: when you / }).waitFor();
        inStore((store) => {
          expect(store.instincts.get(KEY)?.promoted_at).toBeNull();
          expect(store.instincts.convictions()).toEqual([]);
          expect(eventsOf(store, KEY).filter((e) => e.kind !== 'create')).toMatchObject([
            { kind: 'edit', source: 'dashboard' },
            { kind: 'promote', source: 'dashboard' },
            { kind: 'unpromote', source: 'dashboard' },
          ]);
        });

        // The project's facts, and retracting one after a confirmation.
        const fact = page.locator(`#facts tr[data-fact="${factId}"]`);
        await fact.waitFor();
        await page.getByRole('button', { name: `invalidate: fact ${factId}` }).click();
        await fact.getByRole('button', { name: 'Yes, invalidate it' }).click();
        await expect.poll(message).toBe('Retracted “webapp tests with jest”: it stays in the history as retracted.');
        await expect.poll(() => page.locator('#facts').count()).toBe(0);
        inStore((store) => {
          expect(store.graph.facts.get(factId)).toMatchObject({ expired_reason: 'retracted', metadata: { closed_by: 'dashboard' } });
        });
        await expect.poll(() => page.locator('#summary').textContent()).toMatch(/^2 instincts, 0 convictions/);
        await page.screenshot({ path: screenshotPath('dashboard-correct-project'), fullPage: true });

        // Everything learned: merge the duplicate into it, then forget it, after a confirmation.
        await page.getByRole('button', { name: 'Everything learned' }).click();
        const duplicate = page.locator(`#instincts tr[data-pattern="${DUPLICATE}"]`);
        await duplicate.waitFor();
        // Screen readers name each control by the rule in words, never by its internal key.
        await expect(page.locator('[aria-label*="pref:"], [aria-label*="webapp/test="]').count()).resolves.toBe(0);
        await duplicate.getByRole('button', { name: 'merge: when testing webapp: Run `npm run test`.' }).click();
        // Each target reads as its trigger and what it says, not as its key.
        await expect(
          duplicate.getByLabel('merge target of when testing webapp: Run `npm run test`.').locator(`option[value="${KEY}"]`).textContent(),
        ).resolves.toMatch(/^when you run the webapp tests: Use `npm test -- --run` \(no watch mode\)\.$/);
        await duplicate.getByLabel('merge target of when testing webapp: Run `npm run test`.').selectOption(KEY);
        await page.getByRole('button', { name: 'Merge', exact: true }).click();
        await expect.poll(message).toBe('Merged “when testing webapp” into “when you run the webapp tests” (2 observations moved).');
        const learned = page.locator(`#instincts tr[data-pattern="${KEY}"]`);
        await expect.poll(() => page.locator(`#instincts tr[data-pattern="${DUPLICATE}"]`).count()).toBe(0);
        inStore((store) => {
          expect(store.instincts.get(DUPLICATE)).toBeUndefined();
          expect(store.instincts.get(KEY)?.evidence).toBe(6);
          expect(eventsOf(store, KEY).filter((e) => e.kind === 'alias')).toEqual([
            { kind: 'alias', source: 'dashboard', detail: `absorbed ${DUPLICATE}` },
          ]);
        });

        await learned.getByRole('button', { name: /^forget: when you run the webapp tests: / }).click();
        const confirm = learned.getByRole('group', { name: /^Forget when you run the webapp tests: .*\?$/ });
        await expect(confirm.textContent()).resolves.toMatch(/^Forget “when you run the webapp tests”\? Its history is kept/);
        await page.screenshot({ path: screenshotPath('dashboard-correct-forget'), fullPage: true });
        // The keyboard lands on Cancel (Enter there cancels), and Escape cancels: nothing happens either way.
        await page.keyboard.press('Enter');
        await expect.poll(() => confirm.count()).toBe(0);
        await learned.getByRole('button', { name: /^forget: when you run the webapp tests: / }).click();
        await confirm.waitFor();
        await page.keyboard.press('Escape');
        await expect.poll(() => confirm.count()).toBe(0);
        expect(inStore((store) => store.instincts.get(KEY)?.evidence)).toBe(6);
        await learned.getByRole('button', { name: /^forget: when you run the webapp tests: / }).click();
        await page.getByRole('button', { name: 'Yes, forget it' }).click();
        await expect.poll(message).toBe('Forgot “when you run the webapp tests” (6 observations).');
        await expect.poll(() => page.locator(`#instincts tr[data-pattern="${KEY}"]`).count()).toBe(0);
        await expect.poll(() => page.locator('#summary').textContent()).toMatch(/^0 instincts, 0 convictions/);
        inStore((store) => {
          expect(store.instincts.get(KEY)).toBeUndefined();
          const log = store.instincts.forgottenEvents(KEY);
          expect(log.map((e) => [e.kind, e.source]).filter(([, source]) => source === 'dashboard')).toEqual([
            ['edit', 'dashboard'],
            ['promote', 'dashboard'],
            ['unpromote', 'dashboard'],
            ['alias', 'dashboard'],
            ['forget', 'dashboard'],
          ]);
          expect(JSON.parse(log.at(-1)?.detail ?? '{}')).toMatchObject({ trigger: 'when you run the webapp tests', evidence: 6 });
        });
        await page.screenshot({ path: screenshotPath('dashboard-correct-learned'), fullPage: true });
      } finally {
        await browser.close();
        await stop();
      }
    },
    60_000,
  );
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { tempDir } from '../test-support/cli.js';
import { learnedRules } from './memory.js';
import { invoke } from './operation.js';
import { renderRules } from './rules.js';

const SHOP = 'aaaaaaaaaaaaaaaa';
let store: TestStore;
let dir: ReturnType<typeof tempDir>;
beforeEach(() => {
  store = testStore('2026-02-01T00:00:00.000Z');
  dir = tempDir();
  store.sessions.save({
    ...{ id: 's1', source: 'claude-code', project: SHOP, project_name: 'shop', cwd: '/elsewhere/shop' },
    ...{ started_at: '2026-01-30T09:00:00.000Z', ended_at: '2026-01-30T10:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
    ...{ files_touched: '[]', summary: 'Tests.', continues_from: null, transcript_path: null, file_name: null },
  });
  observe(store, {
    pattern: 'pref:shop/test=pnpm-test',
    trigger: 'when you need to run the tests in shop',
    action: 'Use `pnpm test`.',
    project: SHOP,
    occurrences: 5,
  });
});
afterEach(() => {
  store.cleanup();
  dir.cleanup();
});

describe('the learned rules a question names', () => {
  it('asked from a folder with no history (the home folder), come from every project, each line naming its own', async () => {
    const lines = await learnedRules(store, { query: 'how do we run the tests', cwd: dir.path });
    expect(lines).toEqual([expect.stringMatching(/^- When you need to run the tests in shop: Use `pnpm test`.* \(learned in shop\)$/)]);
  });

  it("for a project named, are that project's only", async () => {
    store.sessions.save({
      ...{ id: 's2', source: 'claude-code', project: 'bbbbbbbbbbbbbbbb', project_name: 'blog', cwd: '/elsewhere/blog' },
      ...{ started_at: '2026-01-30T09:00:00.000Z', ended_at: '2026-01-30T10:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
      ...{ files_touched: '[]', summary: 'Posts.', continues_from: null, transcript_path: null, file_name: null },
    });
    const blog = await learnedRules(store, { query: 'how do we run the tests', project: 'blog' });
    expect(blog).toEqual([]);
    expect(await learnedRules(store, { query: 'how do we run the tests', project: 'shop' })).toHaveLength(1);
  });
});

describe("a project's rule file", () => {
  it('names the project in its own words, for a rule filed under another checkout of it and seen here too', () => {
    const BRANCH = 'cccccccccccccccc';
    store.sessions.save({
      ...{ id: 's3', source: 'claude-code', project: BRANCH, project_name: 'shop-fix-cart', cwd: '/elsewhere/shop-fix-cart' },
      ...{ started_at: '2026-01-29T09:00:00.000Z', ended_at: '2026-01-29T10:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
      ...{ files_touched: '[]', summary: 'Cart.', continues_from: null, transcript_path: null, file_name: null },
    });
    const lint = { pattern: 'fix:eslint-no-unused', trigger: 'when writing code that `pnpm lint` checks in shop-fix-cart' };
    observe(store, { ...lint, action: 'Satisfy no-unused-vars up front.', project: BRANCH, occurrences: 3 });
    observe(store, { ...lint, project: SHOP, occurrences: 2 });
    store.instincts.update(store.instincts.get(lint.pattern)?.id as number, { promoted_at: '2026-01-31T00:00:00.000Z' });
    const { content } = invoke(renderRules, { store, env: {} }, { project: 'shop' });
    expect(content).toMatch(/checks in shop: Satisfy no-unused-vars/);
    expect(content).not.toContain('shop-fix-cart');
  });
});

describe('an export from a folder no session ran in', () => {
  it('names the projects that have rules, by the name --project takes', () => {
    store.instincts.update(store.instincts.get('pref:shop/test=pnpm-test')?.id as number, { promoted_at: '2026-01-31T00:00:00.000Z' });
    const here = invoke(renderRules, { store, env: {} }, { cwd: dir.path });
    expect(here).toMatchObject({
      content: '',
      rule_count: 0,
      note: expect.stringMatching(/projects with rules: shop \(e\.g\. `--project shop`\)/),
    });
    expect(invoke(renderRules, { store, env: {} }, { project: 'shop' })).toMatchObject({ rule_count: 1 });
  });
});

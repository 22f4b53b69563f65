import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { memoryDailyLog, memorySave, memorySearch } from '../agent/tools/memory.js';
import { ToolRegistry, bringsOutsideText } from '../agent/tools/registry.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { filesSaid, storeMemory } from './agent-memory.js';

let store: TestStore;
beforeEach(() => (store = testStore('2026-03-05T10:00:00.000Z')));
afterEach(() => store.cleanup());

const registry = new ToolRegistry([memorySearch, memorySave, memoryDailyLog]);
const ctx = () => ({
  workspace: '/x',
  home: store.paths.home,
  session: 'chat-1',
  clock: store.clock,
  memory: storeMemory({ store, env: {} }),
});

describe('the memory tools over the store', () => {
  it('save a memory and find it again, with its provenance', async () => {
    const saved = await registry.run('memory_save', { text: 'Ada prefers green tea in the afternoon', title: 'tea' }, ctx());
    expect(saved).toMatchObject({ ok: true, output: { collection: 'agent-memory' } });
    const found = await registry.run('memory_search', { query: 'what tea does Ada like' }, ctx());
    expect(found).toMatchObject({ ok: true, output: { results: [{ collection: 'agent-memory', title: 'tea', text: /green tea/ }] } });
  });

  it('keep no secret in what it saves: it comes back in later prompts and searches', async () => {
    const key = ['sk-ant-', 'api03-', 'AbCdEfGhIjKlMnOpQrStUvWxYz012345'].join('');
    await registry.run('memory_save', { text: `The deploy key is ${key} and password=Hunter2Agent`, title: 'deploy' }, ctx());
    const found = await registry.run('memory_search', { query: 'deploy key', limit: 3 }, ctx());
    const text = JSON.stringify(found);
    expect(text).toMatch(/REDACTED/);
    expect(text).not.toContain(key);
    expect(text).not.toContain('Hunter2Agent');
  });

  it('count what memory_search returns as outside text (synced sessions, saved pages), so a memory write after it asks', () => {
    expect(bringsOutsideText(registry.get('memory_search'))).toBe(true);
    expect(bringsOutsideText(registry.get('memory_save'))).toBe(false);
  });

  it("append to today's log under the UTC date, each entry kept", async () => {
    const one = await registry.run('memory_daily_log', { entry: 'Watered the basil' }, ctx());
    expect(one).toMatchObject({ ok: true, output: { date: '2026-03-05', collection: 'agent-daily-log' } });
    await registry.run('memory_daily_log', { entry: 'Watered the basil again after the heat' }, ctx());
    const found = await registry.run('memory_search', { query: 'basil watered', limit: 5 }, ctx());
    const results = (found as { output: { results: { title: string; ts: string }[] } }).output.results;
    expect(results).toHaveLength(2);
    expect(results.every((r) => r.title === 'Daily log 2026-03-05' && r.ts.startsWith('2026-03-05'))).toBe(true);
  });

  it('recall what the agent saved that a message names, and nothing for a message about something else', async () => {
    await registry.run('memory_save', { text: 'My favourite editor is Helix' }, ctx());
    const port = ctx().memory;
    expect((await port.recall?.('what is my favourite editor?', 3))?.map((h) => h.text)).toEqual(['My favourite editor is Helix']);
    expect(await port.recall?.('book a table for two tonight', 3)).toEqual([]);
    expect(await port.recall?.('?!', 3)).toEqual([]);
  });

  it('name the learned rules a question names in plain words, from any project, and never title a record by its key', async () => {
    store.sessions.save({
      ...{ id: 's1', source: 'claude-code', project: 'aaaaaaaaaaaaaaaa', project_name: 'shop', cwd: '/elsewhere/shop' },
      ...{ started_at: '2026-03-01T09:00:00.000Z', ended_at: '2026-03-01T10:00:00.000Z', tools_used: '[]', tool_counts: '{}' },
      ...{ files_touched: '[]', summary: 'Tests.', continues_from: null, transcript_path: null, file_name: null },
    });
    const key = 'pref:shop/test=pnpm-test';
    observe(store, {
      pattern: key,
      trigger: 'when you need to run the tests in shop',
      action: 'Use `pnpm test`.',
      project: 'aaaaaaaaaaaaaaaa',
      occurrences: 5,
    });
    const found = await registry.run('memory_search', { query: 'how do we run the tests in shop' }, ctx());
    const output = (found as { output: { rules: string[]; results: { id: string; title?: string }[] } }).output;
    expect(output.rules).toEqual([expect.stringMatching(/^- When you need to run the tests in shop: Use `pnpm test`/)]);
    expect(output.results.find((r) => r.id === key)).toBeDefined();
    expect(JSON.stringify(output.results.map((r) => r.title))).not.toContain(key);
    // A question no rule answers carries no rules field at all.
    const none = await registry.run('memory_search', { query: 'green tea' }, ctx());
    expect(none).toMatchObject({ ok: true, output: { results: expect.any(Array) } });
    expect((none as { output: object }).output).not.toHaveProperty('rules');
  });

  it('refuse empty input, and say the fix when no store is open', async () => {
    expect(await registry.run('memory_save', { text: '  ' }, ctx())).toMatchObject({ ok: false, refused: 'input' });
    const { memory: _none, ...bare } = ctx();
    expect(await registry.run('memory_search', { query: 'x' }, bare)).toMatchObject({ ok: false, hint: /agent chat/ });
  });
});

describe("a record's files, as the model reads them", () => {
  it('are words, not a JSON list; an empty list is dropped and other text is left as it is', () => {
    expect(filesSaid('Fixed lint.\n["a/b.go","c.go"]')).toBe('Fixed lint.\nFiles: a/b.go, c.go');
    expect(filesSaid('Fixed lint.\n[]')).toBe('Fixed lint.');
    expect(filesSaid('["x.ts"]')).toBe('Files: x.ts');
    expect(filesSaid('Scores\n[1, 2]')).toBe('Scores\n[1, 2]');
    expect(filesSaid('A note [in brackets]')).toBe('A note [in brackets]');
    expect(filesSaid('Broken\n[not json]')).toBe('Broken\n[not json]');
  });
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryDailyLog, memorySave, memorySearch } from '../agent/tools/memory.js';
import { ToolRegistry, bringsOutsideText } from '../agent/tools/registry.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { storeMemory } from './agent-memory.js';

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

  it('refuse empty input, and say the fix when no store is open', async () => {
    expect(await registry.run('memory_save', { text: '  ' }, ctx())).toMatchObject({ ok: false, refused: 'input' });
    const { memory: _none, ...bare } = ctx();
    expect(await registry.run('memory_search', { query: 'x' }, bare)).toMatchObject({ ok: false, hint: /agent chat/ });
  });
});

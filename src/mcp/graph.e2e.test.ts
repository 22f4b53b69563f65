/** The knowledge-graph MCP tools through the official client over stdio. */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson, tempDir } from '../test-support/cli.js';
import { type Connected, call, callError, connectStdio } from '../test-support/mcp.js';

let home: ReturnType<typeof tempDir>;
let mcp: Connected;
const store = () => join(home.path, 'store');

beforeAll(async () => {
  home = tempDir();
  cliJson(
    store(),
    [
      'graph',
      'add',
      'user',
      'prefers',
      'named exports',
      '--source-type',
      'person',
      '--description',
      'The user prefers named exports over default exports',
    ],
    { HOMUNCULUS_NOW: '2026-01-01T00:00:00Z' },
  );
  cliJson(
    store(),
    ['graph', 'add', 'user', 'prefers', 'default exports', '--description', 'The user now prefers default exports over named exports'],
    { HOMUNCULUS_NOW: '2026-02-01T00:00:00Z' },
  );
  mcp = await connectStdio(store(), home.path);
});
afterAll(async () => {
  await mcp.close();
  home.cleanup();
});

describe('graph tools', () => {
  it('memory_context returns the task-aware injection within its level', async () => {
    const r = await call<{ level: string; task: string; text: string; facts: number[] }>(mcp.client, 'memory_context', {
      prompt: 'refactor the module exports: which exports does the user prefer?',
    });
    expect(r).toMatchObject({ level: 'full', task: 'question' });
    expect(r.text).toContain('now prefers default exports');
    expect(r.facts).toEqual([2]);
    const minimal = await call<{ level: string; text: string }>(mcp.client, 'memory_context', { prompt: 'exports', context_used_pct: 85 });
    expect(minimal).toMatchObject({ level: 'minimal', text: '' });
  });

  it('memory_search answers from the same facts: the value the graph holds now, not the one it replaced', async () => {
    const r = await call<{ results: { id: string; collection: string; text: string }[] }>(mcp.client, 'memory_search', {
      query: 'which exports does the user prefer',
      collections: ['facts'],
      mode: 'bm25',
    });
    expect(r.results.map((h) => [h.collection, h.id])).toEqual([['facts', '2']]);
    expect(r.results[0]?.text).toBe('user prefers default exports: The user now prefers default exports over named exports');
  });

  it('graph_facts travels in time and refuses a bad instant', async () => {
    const past = await call<{ facts: { id: number; superseded_by: number | null }[] }>(mcp.client, 'graph_facts', { at: '2026-01-15' });
    expect(past.facts).toEqual([expect.objectContaining({ id: 1, superseded_by: 2 })]);
    const now = await call<{ count: number }>(mcp.client, 'graph_facts', { entity: 'user' });
    expect(now.count).toBe(1);
    expect(await callError(mcp.client, 'graph_facts', { at: 'last week' })).toMatch(/at must be an ISO-8601 date or instant/);
    expect(await callError(mcp.client, 'graph_facts', { entity: 'nobody' })).toMatch(/Not found: entity/);
  });
});

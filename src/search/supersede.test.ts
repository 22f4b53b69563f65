import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJsonObject } from '../store/json.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { addDocuments, deleteDocuments } from './memory.js';
import { SUPERSEDED_FACTOR, modifiersFor } from './modifiers.js';
import { search } from './search.js';

let store: TestStore;
beforeEach(() => (store = testStore('2026-03-01T00:00:00.000Z')));
afterEach(() => store.cleanup());

const memory = (id: string, text: string, ts: string, project = 'p1') => ({ id, text, ts, project, collection: 'memories' });
const meta = (id: string) => parseJsonObject(store.documents.get('memories', id)?.metadata);

describe('memories that change over time', () => {
  it('marks the older memory superseded with a link, keeps it, and ranks the newer first', async () => {
    // The older memory matches the query better word for word; supersession must still put the newer first.
    addDocuments(store, [memory('old', 'Billing launch deadline: the billing launch deadline is March 3', '2026-01-10T00:00:00Z')], {
      supersede: true,
    });
    const added = addDocuments(store, [memory('new', 'The billing launch deadline moved to March 17', '2026-02-01T00:00:00Z')], {
      supersede: true,
    });
    expect(added.superseded).toEqual(['old']);
    expect(meta('old')).toMatchObject({ superseded_by: 'new', superseded_at: '2026-02-01T00:00:00Z' });
    expect(meta('new')).toMatchObject({ supersedes: ['old'] });
    const res = await search(store, null, { query: 'billing launch deadline', mode: 'bm25' });
    expect(res.results.map((r) => r.id)).toEqual(['new', 'old']);
    expect(res.results[1]?.explain.modifiers.superseded).toBe(SUPERSEDED_FACTOR);
  });

  it('leaves unrelated memories, other projects, and imports without the option alone', () => {
    addDocuments(store, [memory('p95', 'Checkout p95 latency is 240 ms', '2026-01-10T00:00:00Z')], { supersede: true });
    addDocuments(store, [memory('lunch', 'Team lunch is on Friday', '2026-01-11T00:00:00Z')], { supersede: true });
    addDocuments(store, [memory('other', 'Checkout p95 latency improved to 180 ms', '2026-02-01T00:00:00Z', 'p2')], { supersede: true });
    expect(meta('p95').superseded_by).toBeUndefined();
    addDocuments(store, [memory('plain', 'Checkout p95 latency improved to 150 ms', '2026-02-02T00:00:00Z')]);
    expect(meta('p95').superseded_by).toBeUndefined();
    // Both are older values; each is marked by the value after it, a chain: p95 -> plain -> later.
    expect(
      addDocuments(store, [memory('later', 'Checkout p95 latency improved to 180 ms', '2026-02-03T00:00:00Z')], {
        supersede: true,
      }),
    ).toMatchObject({ superseded: ['plain'], supersededBy: { p95: 'plain' } });
    expect(meta('lunch').superseded_by).toBeUndefined();
  });

  it('in one file, a later line replaces an earlier one only: never a loop, and differently numbered things stay apart', () => {
    // One time for all, as a file of notes often has: the line stored later is the newer.
    const lines = Array.from({ length: 9 }, (_, i) =>
      memory(`x${i}`, `the build of module ${i % 3} takes ${10 + i} seconds`, '2026-01-01'),
    );
    const added = addDocuments(store, lines, { supersede: true });
    // Stored in one batch, each earlier line is marked by the later one that restates it.
    expect(Object.entries(added.supersededBy).sort()).toEqual([0, 1, 2, 3, 4, 5].map((i) => [`x${i}`, `x${i + 3}`]));
    for (let i = 0; i < 6; i++) expect(meta(`x${i}`).superseded_by).toBe(`x${i + 3}`);
    for (let i = 6; i < 9; i++) expect(meta(`x${i}`).superseded_by).toBeUndefined();
    // A memory never replaces one that replaces it.
    for (let i = 0; i < 9; i++) expect(meta(`x${i}`).supersedes ?? []).not.toContain(meta(`x${i}`).superseded_by);
  });

  it('marks each older value by the next one, a chain, whatever order a file lists them in', () => {
    const rt = (i: number) => memory(`rt${i}`, `Our p95 response time is ${500 - 100 * i} ms`, `2026-01-0${i}`);
    const added = addDocuments(store, [rt(3), rt(1), rt(2)], { supersede: true });
    expect([meta('rt1').superseded_by, meta('rt2').superseded_by, meta('rt3').superseded_by]).toEqual(['rt2', 'rt3', undefined]);
    expect(meta('rt2').supersedes).toEqual(['rt1']);
    expect(added.superseded).toEqual(['rt2']);
    expect(added.supersededBy).toEqual({ rt1: 'rt2' });
  });

  it('deleting a newer value makes the one before it current again, or links it to the next that remains', () => {
    const rt = (i: number) => memory(`rt${i}`, `Our p95 response time is ${500 - 100 * i} ms`, `2026-01-0${i}`);
    for (const i of [1, 2, 3, 4]) addDocuments(store, [rt(i)], { supersede: true });
    expect(deleteDocuments(store, 'memories', ['rt4'])).toBe(1);
    expect([meta('rt1').superseded_by, meta('rt2').superseded_by, meta('rt3').superseded_by]).toEqual(['rt2', 'rt3', undefined]);
    expect(meta('rt3').superseded_at).toBeUndefined();
    // A value in the middle: the one before it is now superseded by the one after it.
    deleteDocuments(store, 'memories', ['rt2']);
    expect([meta('rt1').superseded_by, meta('rt3').superseded_by]).toEqual(['rt3', undefined]);
    expect(meta('rt3').supersedes).toEqual(['rt1']);
    // Both that remain named by one delete: the first is current.
    addDocuments(store, [rt(4)], { supersede: true });
    deleteDocuments(store, 'memories', ['rt3', 'rt4']);
    expect(meta('rt1').superseded_by).toBeUndefined();
  });

  it('without a time, the line stored later is the newer; older history imported late is marked by what came after it', () => {
    const undated = (id: string, text: string) => ({ id, text, project: 'p1', collection: 'memories' });
    addDocuments(store, [undated('a', 'Deploy freeze starts December 18'), undated('b', 'Deploy freeze now starts December 20')], {
      supersede: true,
    });
    expect(meta('a').superseded_by).toBe('b');
    expect(meta('b').superseded_by).toBeUndefined();
    // Again: the same lines change nothing, and the links stay.
    const again = addDocuments(
      store,
      [undated('a', 'Deploy freeze starts December 18'), undated('b', 'Deploy freeze now starts December 20')],
      {
        supersede: true,
      },
    );
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 2, superseded: [], supersededBy: {} });
    expect(meta('a').superseded_by).toBe('b');
    // January's figure arrives after March's: it is the older one.
    addDocuments(store, [memory('mar', 'Checkout p95 latency is 180 ms', '2026-03-01T00:00:00Z')], { supersede: true });
    const late = addDocuments(store, [memory('jan', 'Checkout p95 latency is 240 ms', '2026-01-05T00:00:00Z')], { supersede: true });
    expect(late).toMatchObject({ superseded: [], supersededBy: { jan: 'mar' } });
    expect(meta('jan').superseded_by).toBe('mar');
    expect(meta('mar')).toMatchObject({ supersedes: ['jan'] });
    expect(meta('mar').superseded_by).toBeUndefined();
  });

  it('orders dated and undated memories one way (an undated one is as of when it was stored): no loop', () => {
    const at = (id: string, text: string, ts?: string) => ({ id, text, project: 'p1', collection: 'memories', ...(ts ? { ts } : {}) });
    addDocuments(store, [at('n1', 'The node version is 18', '2026-02-01T00:00:00Z')], { supersede: true });
    // Undated, stored on 2026-03-01 (the store's clock): the newest.
    expect(addDocuments(store, [at('n2', 'The node version is 20')], { supersede: true }).superseded).toEqual(['n1']);
    const old = addDocuments(store, [at('n0', 'The node version is 16', '2025-01-01T00:00:00Z')], { supersede: true });
    expect(old).toMatchObject({ superseded: [], supersededBy: { n0: 'n1' } });
    expect([meta('n0').superseded_by, meta('n1').superseded_by, meta('n2').superseded_by]).toEqual(['n1', 'n2', undefined]);
  });

  it('leaves two subjects with a value each alone', () => {
    const undated = (id: string, text: string) => ({ id, text, project: 'p1', collection: 'memories' });
    const pairs = [
      ['The test suite takes 30 seconds', 'The linter takes 5 seconds'],
      ['The API timeout is 30 seconds', 'The DB timeout is 60 seconds'],
      ['Python version is 3.11', 'Node version is 20'],
    ];
    pairs.forEach(([a, b], i) => {
      const added = addDocuments(store, [undated(`a${i}`, a as string), undated(`b${i}`, b as string)], { supersede: true });
      expect(added, `${a} / ${b}`).toMatchObject({ superseded: [], supersededBy: {} });
    });
  });

  it('applies the superseded factor as a modifier', () => {
    expect(modifiersFor({ superseded: true }, new Date(), false)).toEqual({ superseded: 0.5, factor: 0.5 });
    expect(modifiersFor({ superseded: false, confidence: 0.8 }, new Date(), false)).toEqual({ confidence: 0.8, factor: 0.8 });
  });
});

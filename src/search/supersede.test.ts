import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseJsonObject } from '../store/json.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { addDocuments } from './memory.js';
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
    expect(
      addDocuments(store, [memory('later', 'Checkout p95 latency improved to 180 ms', '2026-02-03T00:00:00Z')], {
        supersede: true,
      }).superseded.sort(),
    ).toEqual(['p95', 'plain']);
    expect(meta('lunch').superseded_by).toBeUndefined();
  });

  it('applies the superseded factor as a modifier', () => {
    expect(modifiersFor({ superseded: true }, new Date(), false)).toEqual({ superseded: 0.5, factor: 0.5 });
    expect(modifiersFor({ superseded: false, confidence: 0.8 }, new Date(), false)).toEqual({ confidence: 0.8, factor: 0.8 });
  });
});

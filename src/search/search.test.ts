import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { tinyOnnxProvider } from '../test-support/tiny-onnx.js';
import { hasOnnxRuntime } from '../test-support/shared.js';
import type { EmbeddingProvider } from '../embed/provider.js';
import type { DocumentInput } from '../store/documents/index.js';
import { rawDatabase } from '../store/testing.js';
import { Embedder } from './embeddings.js';
import { rankInstincts } from './instincts-rank.js';
import { addDocuments } from './memory.js';
import { search } from './search.js';
import { readFingerprint } from './vectors.js';

const doc = (id: string, text: string, extra: Partial<DocumentInput> = {}): DocumentInput => ({
  id,
  text,
  collection: 'memories',
  ...extra,
});

let models: ReturnType<typeof tempDir>;
let small: EmbeddingProvider;
let wide: EmbeddingProvider;

const ONNX = hasOnnxRuntime('search.test.ts, which embeds with a tiny ONNX model');

beforeAll(async () => {
  models = tempDir('homunculus-models-');
  if (!ONNX) return;
  small = await tinyOnnxProvider(models.path, 'tiny-a', 8);
  wide = await tinyOnnxProvider(models.path, 'tiny-b', 16);
});
afterAll(() => models.cleanup());

function withStore(fn: (store: TestStore) => Promise<void>) {
  return async () => {
    const store = testStore('2026-03-01T00:00:00.000Z');
    try {
      await fn(store);
    } finally {
      store.cleanup();
    }
  };
}

const ids = (res: { results: { id: string }[] }) => res.results.map((r) => r.id);

describe.runIf(ONNX)('search on a real store', () => {
  it(
    'returns nothing, without error, on an empty store and for empty queries',
    withStore(async (store) => {
      const embedder = new Embedder(store, small);
      for (const mode of ['hybrid', 'bm25', 'vector'] as const) {
        expect((await search(store, embedder, { query: 'anything at all', mode })).results).toEqual([]);
      }
      addDocuments(store, [doc('a', 'the cat sat on the mat')]);
      expect((await search(store, embedder, { query: '   ' })).results).toEqual([]);
      // Only the nearest in meaning: said, since its score would read like an answer's.
      await embedder.syncAll();
      const nonsense = await search(store, embedder, { query: 'asdkjh qwpoeiru zzxcv' });
      expect(nonsense.notes).toContain(
        'No document shares a word with the query: the results are only the nearest in meaning, and may not answer it.',
      );
      expect((await search(store, embedder, { query: 'where did the cat sit' })).notes).toEqual([]);
      expect((await search(store, embedder, { query: '\u0000\u0000' })).results).toEqual([]);
    }),
  );

  it(
    'finds CJK text by 3+ character substrings and by two-character words',
    withStore(async (store) => {
      addDocuments(store, [
        doc('jp', '昨日は東京タワーに行った'),
        doc('kr', '서울에서 만나요'),
        doc('en', 'we went to the tower yesterday'),
      ]);
      expect(ids(await search(store, null, { query: '東京タワー' }))).toEqual(['jp']);
      expect(ids(await search(store, null, { query: '東京' }))).toEqual(['jp']);
      expect(ids(await search(store, null, { query: '서울에서' }))).toEqual(['kr']);
    }),
  );

  it(
    'finds code identifiers by exact name and by a fragment',
    withStore(async (store) => {
      addDocuments(store, [
        doc('code', 'The handler calls getUserById(id) and reads user_id from src/app.ts'),
        doc('prose', 'users are fetched by their id in the handler'),
      ]);
      expect(ids(await search(store, null, { query: 'getUserById' }))[0]).toBe('code');
      expect(ids(await search(store, null, { query: 'UserById' }))).toEqual(['code']);
      expect(ids(await search(store, null, { query: 'app.ts' }))).toEqual(['code']);
    }),
  );

  it(
    'falls back to plain words when FTS5 syntax is broken, and honours it when valid',
    withStore(async (store) => {
      addDocuments(store, [doc('d1', 'deploy the service with a rollback plan'), doc('d2', 'deploy once more')]);
      const broken = await search(store, null, { query: 'deploy AND (' });
      expect(ids(broken).sort()).toEqual(['d1', 'd2']);
      expect(broken.notes.join(' ')).toMatch(/not valid FTS5 syntax/);
      const bad = await search(store, null, { query: '"unterminated phrase' });
      expect(bad.notes.join(' ')).toMatch(/not valid FTS5 syntax/);
      expect(ids(await search(store, null, { query: 'deploy AND rollback', mode: 'bm25' }))).toEqual(['d1']);
      expect(ids(await search(store, null, { query: 'NOT', mode: 'bm25' }))).toEqual([]);
    }),
  );

  it(
    'survives a 1 MB query and NUL bytes in queries and documents',
    withStore(async (store) => {
      addDocuments(store, [doc('n', 'null\u0000byte inside'), doc('big', 'needle in a haystack')]);
      const huge = `needle ${'x'.repeat(1_000_000)}`;
      expect(ids(await search(store, null, { query: huge }))).toEqual(['big']);
      expect(ids(await search(store, null, { query: 'null\u0000byte' }))).toEqual(['n']);
    }),
  );

  it(
    'filters by collection, project, time range and minimum score',
    withStore(async (store) => {
      addDocuments(store, [
        doc('m1', 'release checklist for the api', { project: 'p1', ts: '2026-01-10T00:00:00.000Z' }),
        doc('m2', 'release notes for the web app', { project: 'p2', ts: '2026-02-10T00:00:00.000Z' }),
        doc('f1', 'release day is friday', { collection: 'notes', project: 'p1', ts: '2026-02-20T00:00:00.000Z' }),
        doc('undated', 'release without a date', { project: 'p1' }),
      ]);
      const q = (filter: object, extra: object = {}) =>
        search(store, null, { query: 'release', filter, ...extra }).then((r) => ids(r).sort());
      expect(await q({ collections: ['notes'] })).toEqual(['f1']);
      expect(await q({ project: 'p1' })).toEqual(['f1', 'm1', 'undated']);
      expect(await q({ since: '2026-02-01T00:00:00.000Z' })).toEqual(['f1', 'm2']);
      expect(await q({ until: '2026-01-31T00:00:00.000Z' })).toEqual(['m1']);
      expect(await q({ project: 'nope' })).toEqual([]);
      expect(await q({}, { minScore: 10 })).toEqual([]);
      expect((await q({})).length).toBe(4);
    }),
  );

  it(
    'keeps the word, trigram and vector indexes consistent through updates and deletes',
    withStore(async (store) => {
      const embedder = new Embedder(store, small);
      addDocuments(store, [doc('x', 'the cat calls fetchData'), doc('y', 'a dog barks')]);
      await embedder.syncAll();
      expect(store.documents.vectorCounts(embedder.key).current).toBe(2);
      addDocuments(store, [doc('x', 'the weather turned into a storm near parseConfig')]);
      expect(store.documents.vectorCounts(embedder.key).current).toBe(1);
      expect(ids(await search(store, null, { query: 'cat' }))).toEqual([]);
      expect(ids(await search(store, null, { query: 'fetchData' }))).toEqual([]);
      expect(ids(await search(store, null, { query: 'storm' }))).toEqual(['x']);
      expect(ids(await search(store, null, { query: 'parseConfig' }))).toEqual(['x']);
      expect(store.documents.delete('memories', ['x', 'missing'])).toBe(1);
      expect(store.documents.get('memories', 'x')).toBeUndefined();
      expect(ids(await search(store, embedder, { query: 'storm parseConfig' }))).not.toContain('x');
      expect(ids(await search(store, null, { query: 'storm parseConfig' }))).toEqual([]);
      expect(store.documents.vectorCounts(embedder.key)).toMatchObject({ documents: 1, current: 1 });
      const db = rawDatabase(store);
      db.prepare("INSERT INTO documents_fts(documents_fts) VALUES ('integrity-check')").run();
      db.prepare("INSERT INTO documents_trigram(documents_trigram) VALUES ('integrity-check')").run();
    }),
  );

  it(
    'repairs at most the requested number of missing embeddings per query',
    withStore(async (store) => {
      const embedder = new Embedder(store, small);
      addDocuments(
        store,
        Array.from({ length: 30 }, (_, i) => doc(`d${i}`, `cat number ${i} sat on the mat`)),
      );
      const res = await search(store, embedder, { query: 'cat mat', limit: 5 });
      expect(res.repaired).toBe(20);
      expect(store.documents.vectorCounts(embedder.key).current).toBe(20);
      const again = await search(store, embedder, { query: 'cat mat', limit: 5, repair: 5 });
      expect(again.repaired).toBe(5);
      expect(again.results[0]?.explain.lists.map((l) => l.list)).toContain('vector');
    }),
  );

  it(
    're-embeds everything when the model changes, never mixing the two',
    withStore(async (store) => {
      addDocuments(store, [doc('a', 'cat kitten pet'), doc('b', 'stock market price'), doc('c', 'rain storm weather')]);
      const first = new Embedder(store, small);
      expect((await first.syncAll()).embedded).toBe(3);
      expect(readFingerprint(store.documents)).toEqual({ provider: 'onnx', model: 'tiny-a', dims: 8 });
      const second = new Embedder(store, wide);
      expect(second.modelChanged()?.from.model).toBe('tiny-a');
      // Before re-embedding, the new model sees no vector of the old one.
      const before = await search(store, second, { query: 'kitten', mode: 'vector', repair: 0 });
      expect(before.results).toEqual([]);
      expect(before.notes.join(' ')).toMatch(/homunculus embed/);
      const progress: number[] = [];
      const result = await second.syncAll({ onProgress: (done) => progress.push(done) });
      expect(result).toMatchObject({ embedded: 3, removedStale: 3, previous: { model: 'tiny-a' } });
      expect(progress.at(-1)).toBe(3);
      expect(readFingerprint(store.documents)).toEqual({ provider: 'onnx', model: 'tiny-b', dims: 16 });
      expect(store.documents.vectorCounts(second.key)).toEqual({ documents: 3, current: 3, stale: 0, missing: 0 });
      const after = await search(store, second, { query: 'kitten', mode: 'vector' });
      expect(after.results[0]?.id).toBe('a');
    }),
  );

  it(
    'skips the dense list when one BM25 hit is strong (qmd shortcut) and explains every stage',
    withStore(async (store) => {
      const embedder = new Embedder(store, small);
      addDocuments(store, [
        doc('rare', 'zyxwvut zyxwvut', { title: 'zyxwvut' }),
        ...Array.from({ length: 200 }, (_, i) => doc(`f${i}`, `filler text number ${i} about cats`)),
      ]);
      const res = await search(store, embedder, { query: 'zyxwvut' });
      expect(res.shortcut).toBe(true);
      expect(res.results[0]?.id).toBe('rare');
      expect(res.results[0]?.explain.lists.map((l) => l.list)).toEqual(['bm25']);
      expect(res.timings).toHaveProperty('lexical');
    }),
  );

  it(
    'brings the neighbours of a hit along within its thread',
    withStore(async (store) => {
      addDocuments(store, [
        doc('t1', 'Anna: what did you research last week?', { thread: 's1' }),
        doc('t2', 'Ben: adoption agencies, mostly', { thread: 's1' }),
        doc('t3', 'Anna: sounds good', { thread: 's1' }),
        doc('o1', 'Ben: the weather was awful', { thread: 's2' }),
      ]);
      const res = await search(store, null, { query: 'what did Ben research' });
      expect(ids(res).slice(0, 2)).toEqual(['t1', 't2']);
      expect(res.results[1]?.explain.neighbours).toBeGreaterThan(0);
    }),
  );
});

describe.runIf(ONNX)('modifiers in the ranking', () => {
  it(
    'decays facts by age, leaves other records alone unless asked',
    withStore(async (store) => {
      // The clock is 2026-03-01; 90 days earlier is 2025-12-01.
      addDocuments(store, [
        doc('old-fact', 'the deploy target is blue', { collection: 'facts', ts: '2025-12-01T00:00:00.000Z' }),
        doc('new-fact', 'the deploy target is green', { collection: 'facts', ts: '2026-03-01T00:00:00.000Z' }),
        doc('old-note', 'deploy target notes', { ts: '2025-12-01T00:00:00.000Z' }),
      ]);
      const res = await search(store, null, { query: 'deploy target', mode: 'bm25' });
      const byId = new Map(res.results.map((r) => [r.id, r]));
      expect(byId.get('old-fact')?.explain.modifiers.recency).toBeCloseTo(Math.exp(-90 / 90), 6);
      expect(byId.get('new-fact')?.explain.modifiers.recency).toBe(1);
      expect(byId.get('old-note')?.explain.modifiers).toEqual({ factor: 1 });
      const all = await search(store, null, { query: 'deploy target', mode: 'bm25', recency: true });
      expect(all.results.find((r) => r.id === 'old-note')?.explain.modifiers.recency).toBeCloseTo(Math.exp(-1), 6);
      const none = await search(store, null, { query: 'deploy target', mode: 'bm25', recency: false });
      expect(none.results.every((r) => r.explain.modifiers.recency === undefined)).toBe(true);
    }),
  );
});

describe.runIf(ONNX)('fallbacks', () => {
  it(
    'answers from full-text search when the embedding model fails, and fails vector mode clearly',
    withStore(async (store) => {
      addDocuments(store, [doc('a', 'the release checklist'), doc('b', 'lunch plans')]);
      const broken: EmbeddingProvider = { ...small, embed: async () => Promise.reject(new Error('endpoint down')) };
      const embedder = new Embedder(store, broken);
      const res = await search(store, embedder, { query: 'release checklist' });
      expect(ids(res)).toEqual(['a']);
      expect(res.notes.join(' ')).toMatch(/not repaired: endpoint down/);
      expect(res.notes.join(' ')).toMatch(/Embeddings unavailable \(endpoint down\)/);
      await expect(search(store, embedder, { query: 'release', mode: 'vector' })).rejects.toThrow(/endpoint down/);
    }),
  );
});

describe.runIf(ONNX)('query embedding cache', () => {
  it(
    'embeds a repeated query once',
    withStore(async (store) => {
      let calls = 0;
      const counting: EmbeddingProvider = { ...small, embed: (texts) => ((calls += texts.length), small.embed(texts)) };
      const embedder = new Embedder(store, counting);
      const a = await embedder.embedQuery('cat kitten');
      const b = await embedder.embedQuery('cat kitten');
      expect(b).toBe(a);
      expect(calls).toBe(1);
      await embedder.embedQuery('stock market');
      expect(calls).toBe(2);
    }),
  );
});

describe.runIf(ONNX)('instincts in the index', () => {
  it(
    'mirrors instinct inserts, updates and deletes, and ranks them with confidence',
    withStore(async (store) => {
      const base = {
        category: 'preference' as const,
        title: '',
        domain: 'general',
        source: 'test',
        explain: '',
        metadata: '{}',
        evidence: 3,
        first_seen: '2026-02-01T00:00:00.000Z',
        last_seen: '2026-02-20T00:00:00.000Z',
      };
      store.instincts.insert({
        ...base,
        key: 'pref:pkg=pnpm',
        trigger: 'installing node packages',
        action: 'use pnpm instead of npm',
        project: 'p1',
        confidence: 0.9,
      });
      store.instincts.insert({
        ...base,
        key: 'pref:test=vitest',
        trigger: 'writing tests',
        action: 'use vitest for node packages',
        project: '',
        confidence: 0.3,
      });
      store.instincts.insert({
        ...base,
        key: 'pref:other=x',
        trigger: 'deploying',
        action: 'use the staging cluster',
        project: 'p2',
        confidence: 0.9,
      });
      expect(store.documents.get('instincts', 'pref:pkg=pnpm')?.confidence).toBe(0.9);
      const ranked = await rankInstincts(store, 'node packages', 5, { project: 'p1' });
      expect(ranked.map((r) => r.instinct.key)).toEqual(['pref:pkg=pnpm', 'pref:test=vitest']);
      const hit = (await search(store, null, { query: 'node packages', filter: { collections: ['instincts'] } })).results[0];
      expect(hit?.explain.modifiers.confidence).toBe(0.9);
      const id = store.instincts.get('pref:pkg=pnpm')?.id as number;
      store.instincts.update(id, { action: 'use yarn berry', confidence: 0.5 });
      expect(store.documents.get('instincts', 'pref:pkg=pnpm')).toMatchObject({
        confidence: 0.5,
        text: 'installing node packages\nuse yarn berry',
      });
      store.instincts.delete(id);
      expect(store.documents.get('instincts', 'pref:pkg=pnpm')).toBeUndefined();
      expect((await rankInstincts(store, 'yarn berry', 5)).length).toBe(0);
    }),
  );
});

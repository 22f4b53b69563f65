import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rawDatabase } from '../store/testing.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact } from './add-fact.js';
import { deduplicateByEmbedding, embedPending, factEmbeddingText } from './embeddings.js';
import { recencyDecay, reciprocalRankFusion } from './fusion.js';
import { hashEmbedder, hashEmbedding } from './hash-embedder.js';
import { loadVectorPool, searchFacts, topIds, vectorFacts } from './search.js';
import { reconsolidateFact } from './revise.js';
import { cosine } from './similarity.js';

describe('reciprocal rank fusion', () => {
  it('weighs ranks as the design says: 0.7/(60+r_sem) + 0.3/(60+r_bm25)', () => {
    const fused = reciprocalRankFusion([
      { ids: [1, 2], weight: 0.7 },
      { ids: [2, 3], weight: 0.3 },
    ]);
    expect(fused.map((f) => f.id)).toEqual([2, 1, 3]);
    expect(fused[0]?.score).toBeCloseTo(0.7 / 62 + 0.3 / 61);
    expect(fused[1]?.score).toBeCloseTo(0.7 / 61);
    expect(fused[2]?.score).toBeCloseTo(0.3 / 62);
  });

  it('handles empty lists and counts a repeated id once', () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([{ ids: [], weight: 1 }])).toEqual([]);
    expect(reciprocalRankFusion([{ ids: [5, 5], weight: 1 }])).toEqual([{ id: 5, score: 1 / 61 }]);
  });

  it('decays recency as exp(-days/90)', () => {
    expect(recencyDecay(0)).toBe(1);
    expect(recencyDecay(-5)).toBe(1);
    expect(recencyDecay(90)).toBeCloseTo(Math.exp(-1));
  });
});

describe('top ids', () => {
  it('keeps the highest scores best first, lower id first on ties, without needing all sorted', () => {
    const ids = [7, 3, 9, 1, 5, 2];
    const scores = [0.2, 0.9, 0.5, 0.9, 0.1, 0.5];
    expect(topIds(ids, scores, 3)).toEqual([1, 3, 2]);
    expect(topIds(ids, scores, 10)).toEqual([1, 3, 2, 9, 7, 5]);
    expect(topIds(ids, scores, 1)).toEqual([1]);
    expect(topIds([], [], 5)).toEqual([]);
  });
});

describe('the hash embedder', () => {
  it('is deterministic, unit-length, and closer for shared wording', () => {
    const a = hashEmbedding('homunculus validates input with zod');
    expect([...a]).toEqual([...hashEmbedding('homunculus validates input with zod')]);
    expect(cosine(a, a)).toBeCloseTo(1);
    expect(cosine(a, hashEmbedding('homunculus validates its input with zod'))).toBeGreaterThan(
      cosine(a, hashEmbedding('the cat sat on the mat')),
    );
  });
});

describe('fact search and embeddings', () => {
  let store: TestStore;
  beforeEach(() => (store = testStore('2026-01-01T00:00:00.000Z')));
  afterEach(() => store.cleanup());

  const add = (target: string, description: string, extra: Record<string, unknown> = {}) =>
    addFact(store, { source: { name: 'hora', type: 'project' }, target: { name: target }, relation: 'uses', description, ...extra });

  it('finds facts by BM25 and scores them with activation, confidence and recency', () => {
    add('drizzle', 'hora stores rows with the drizzle orm', { confidence: 0.9 });
    add('minisearch', 'hora indexes facts with minisearch for bm25', { confidence: 0.5 });
    const hits = searchFacts(store, { text: 'which orm stores rows' });
    expect(hits.map((h) => h.fact.target)).toEqual(['drizzle']);
    const [hit] = hits;
    expect(hit?.ranks).toEqual({ bm25: 1 });
    expect(hit?.score).toBeCloseTo((1 / 61) * (1 / (1 + Math.exp(-2))) * 0.9);
    expect(searchFacts(store, { text: '' })).toEqual([]);
    expect(searchFacts(store, { text: 'AND OR "(' })).toEqual([]);
  });

  it('scopes by project (global facts always included) and by relation', () => {
    add('zod', 'validation uses zod schemas', { project: 'p1' });
    add('joi', 'validation uses joi schemas', { project: 'p2' });
    add('ajv', 'validation uses ajv schemas');
    expect(
      searchFacts(store, { text: 'validation schemas', projects: ['p1'] })
        .map((h) => h.fact.target)
        .sort(),
    ).toEqual(['ajv', 'zod']);
    expect(searchFacts(store, { text: 'validation schemas', relations: ['depends_on'] })).toEqual([]);
  });

  it('embeds lazily (20 at a time), fuses vectors with BM25, and ranks current values before superseded ones', async () => {
    for (let i = 0; i < 25; i++) add(`lib${i}`, `hora uses lib${i} for the topic${i}x work`);
    const embed = hashEmbedder(64);
    expect((await embedPending(store, embed)).facts).toHaveLength(20);
    expect((await embedPending(store, embed)).facts).toHaveLength(5);
    expect((await embedPending(store, embed)).facts).toHaveLength(0);
    const q = hashEmbedding('lib7 topic7x', 64);
    const hits = searchFacts(store, { text: 'lib7 topic7x', queryVector: q, model: 'hash-64' });
    expect(hits[0]?.fact.target).toBe('lib7');
    expect(hits[0]?.ranks.vector).toBe(1);

    const old = add('p95', 'API p95 latency is 240 ms');
    store.advanceDays(10);
    const now = add('p95', 'API p95 latency improved to 180 ms');
    expect(now.action).toBe('superseded');
    const history = searchFacts(store, { text: 'API p95 latency', includeHistory: true });
    expect(history.map((h) => h.fact.id)).toEqual([now.fact.id, old.fact.id]);
    expect(searchFacts(store, { text: 'API p95 latency', at: '2026-01-05T00:00:00Z' }).map((h) => h.fact.id)).toEqual([old.fact.id]);
  });

  it('keeps read vectors per connection and rereads them after a vector changes or a fact goes', async () => {
    const a = add('zod', 'hora validates its inputs with zod');
    const b = add('pino', 'hora logs with pino');
    const embed = hashEmbedder(64);
    await embedPending(store, embed);
    const pool = () => loadVectorPool(store, {}, 'hash-64');
    const vectorOf = (id: number) => pool().entries.find((e) => e.id === id)?.vector;
    const before = vectorOf(a.fact.id);
    expect(before?.length).toBe(64);
    expect(Math.hypot(...(before ?? []))).toBeCloseTo(1, 5);
    expect(pool().entries.find((e) => e.id === a.fact.id)?.vector).toBe(before); // the cached copy, not a reread
    // A new description clears the vector; re-embedding it must be seen, never the old copy.
    reconsolidateFact(store, a.fact.id, { description: 'hora parses its config with valibot' });
    expect(vectorOf(a.fact.id)).toBeUndefined();
    await embedPending(store, embed);
    const after = vectorOf(a.fact.id);
    expect(after).not.toEqual(before);
    const text = factEmbeddingText({ source: 'hora', relation: 'uses', target: 'zod', description: 'hora parses its config with valibot' });
    expect(cosine(after as Float32Array, hashEmbedding(text, 64))).toBeCloseTo(1, 5);
    expect(vectorFacts(pool(), hashEmbedding('logs with pino', 64), {}, 1)).toEqual([b.fact.id]);
    // Facts are never deleted by the graph: the raw file stands for another writer.
    rawDatabase(store).prepare('DELETE FROM graph_facts WHERE id = ?').run(b.fact.id);
    expect(pool().entries.map((e) => e.id)).toEqual([a.fact.id]);
  });

  it('supersedes the older of two facts about the same entity with cosine above 0.92, not just below', async () => {
    const a = add('zod', 'hora validates its inputs with zod');
    store.advanceDays(1);
    const b = add('zod schemas', 'every input of hora goes through a zod schema');
    const c = add('ajv', 'hora checks json payloads with ajv');
    const d = add('joi', 'hora checked forms with joi once');
    // A keyword embedder: cos(a, b) = 0.95 (same meaning), cos(c, d) = 0.919 (just below the threshold), others 0.
    const at = (cos: number) => [cos, Math.sqrt(1 - cos * cos), 0, 0];
    const vectors: [RegExp, number[]][] = [
      [/inputs with zod/, [1, 0, 0, 0]],
      [/zod schema$/, at(0.95)],
      [/ajv/, [0, 0, 1, 0]],
      [/joi/, [0, 0, 0.919, Math.sqrt(1 - 0.919 * 0.919)]],
    ];
    const embed = Object.assign(
      (texts: readonly string[]) => texts.map((t) => new Float32Array(vectors.find(([re]) => re.test(t))?.[1] ?? [0, 0, 0, 0])),
      { model: 'kw' },
    );
    await embedPending(store, embed);
    const dups = deduplicateByEmbedding(store, [b.fact.id, d.fact.id], { model: 'kw' });
    expect(dups).toEqual([{ kept: b.fact.id, superseded: a.fact.id, cosine: expect.closeTo(0.95, 5) }]);
    expect(store.graph.facts.get(a.fact.id)).toMatchObject({
      expired_reason: 'duplicate',
      superseded_by: b.fact.id,
      invalid_at: '2026-01-02T00:00:00.000Z',
    });
    expect(store.graph.facts.get(c.fact.id)?.expired_at).toBeNull();
    // vectors of another model are never compared
    expect(deduplicateByEmbedding(store, [d.fact.id], { model: 'other' })).toEqual([]);
  });

  it('refuses an embedder that returns the wrong number of vectors', async () => {
    add('x', 'some fact here');
    const broken = Object.assign(() => [], { model: 'broken' });
    await expect(embedPending(store, broken)).rejects.toThrow(/returned 0 vectors for 3 texts/);
  });
});

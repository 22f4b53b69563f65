import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashEmbedding, hashProvider } from '../embed/hash.js';
import type { EmbeddingProvider } from '../embed/provider.js';
import { Embedder } from '../search/embeddings.js';
import { addDocuments } from '../search/memory.js';
import { activationFactor } from '../search/modifiers.js';
import { search } from '../search/search.js';
import { rawDatabase } from '../store/testing.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact } from './add-fact.js';
import { deduplicateByEmbedding, embedFacts, factVectors } from './embeddings.js';
import { BM25_WEIGHT, FACT_TUNING, type FactSearch, SEMANTIC_WEIGHT, factProfile, searchFacts } from './fact-search.js';
import type { Fact } from './facts.js';
import { factTerms } from '../text/terms.js';
import { reconsolidateFact } from './revise.js';
import { cosine } from './similarity.js';

let store: TestStore;
beforeEach(() => (store = testStore('2026-01-01T00:00:00.000Z')));
afterEach(() => store.cleanup());

const add = (target: string, description: string, extra: Record<string, unknown> = {}) =>
  addFact(store, { source: { name: 'hora', type: 'project' }, target: { name: target }, relation: 'uses', description, ...extra });

const targets = async (q: FactSearch) => (await searchFacts(store, null, q)).facts.map((h) => h.fact.target);
const ids = async (q: FactSearch) => (await searchFacts(store, null, q)).facts.map((h) => h.fact.id);

/** An activation of 0 (one access today) weighs this much. */
const FRESH = activationFactor(0);

describe("the facts collection's profile", () => {
  it('scopes to the facts a question admits, tunes as the graph fuses, and picks the fact query words', () => {
    const profile = factProfile(store, { projects: ['p1'], relations: ['uses'], memoryTypes: ['semantic'] });
    expect(profile.scope).toEqual({
      facts: { time: { now: '2026-01-01T00:00:00.000Z' }, projects: ['p1'], relations: ['uses'], memoryTypes: ['semantic'] },
    });
    expect(factProfile(store, { at: '2025-12-01' }).scope?.facts?.time).toEqual({ at: '2025-12-01' });
    expect(factProfile(store, { knownAt: '2025-12-01' }).scope?.facts?.time).toEqual({ knownAt: '2025-12-01', at: '2025-12-01' });
    expect(factProfile(store, { includeHistory: true }).scope?.facts?.time).toEqual({ history: true });
    expect(profile.tuning).toBe(FACT_TUNING);
    expect(profile.tuning?.weights).toEqual({ bm25: BM25_WEIGHT, vector: SEMANTIC_WEIGHT, trigram: 0, feedback: 0 });
    expect(profile.terms?.('Quelle ORM stocke les lignes?')).toEqual(factTerms('Quelle ORM stocke les lignes?'));
  });

  it("scores each hit by its fact's activation, confidence, recency and, with history, supersession", () => {
    const old = add('p95', 'API p95 latency is 240 ms', { confidence: 0.8 });
    store.advanceDays(9);
    const now = add('p95', 'API p95 latency improved to 180 ms', { confidence: 0.6 });
    store.advanceDays(9);
    const rows = [old, now].flatMap((r) => store.documents.get('facts', String(r.fact.id)) ?? []);
    const [oldDoc, nowDoc] = rows.map((r) => r.id);
    const loaded = new Map<number, Fact>();
    const scored = factProfile(store, { includeHistory: true }, loaded).modifiers?.(rows);
    expect(scored?.get(oldDoc as number)).toMatchObject({ confidence: 0.8, recency: Math.exp(-18 / 90), superseded: 0.5 });
    const current = scored?.get(nowDoc as number);
    expect(current).toMatchObject({ confidence: 0.6, recency: Math.exp(-9 / 90) });
    expect(current?.superseded).toBeUndefined();
    expect(current?.factor).toBeCloseTo((current?.activation ?? 0) * 0.6 * Math.exp(-9 / 90), 10);
    // The facts it read are handed back, so a caller needs not read them again.
    expect([...loaded.keys()].sort()).toEqual([old.fact.id, now.fact.id].sort());
    // Without history a superseded fact is not penalised here: the scope keeps it out of the lists.
    expect(
      factProfile(store, {})
        .modifiers?.(rows)
        .get(oldDoc as number)?.superseded,
    ).toBeUndefined();
  });
});

describe('facts through the one search pipeline', () => {
  it('finds facts by BM25 and scores them rrf x activation x confidence x recency', async () => {
    add('drizzle', 'hora stores rows with the drizzle orm', { confidence: 0.9 });
    add('minisearch', 'hora indexes facts with minisearch for bm25', { confidence: 0.5 });
    const { facts } = await searchFacts(store, null, { text: 'which orm stores rows' });
    expect(facts.map((h) => h.fact.target)).toEqual(['drizzle']);
    const [hit] = facts;
    expect(hit?.explain.lists.map((l) => [l.list, l.rank])).toEqual([['bm25', 1]]);
    // The BM25 list alone: the graph's weight, doubled as the original query's list, at rank 1.
    expect(hit?.score).toBeCloseTo(((2 * BM25_WEIGHT) / 61) * FRESH * 0.9, 10);
    expect(hit?.explain.modifiers).toMatchObject({ confidence: 0.9, recency: 1 });
    expect(await targets({ text: '' })).toEqual([]);
    expect(await targets({ text: 'AND OR "(' })).toEqual([]);
  });

  it('decays a fact by the days from its validity to the instant asked about', async () => {
    add('drizzle', 'hora stores rows with the drizzle orm', { validAt: '2025-10-03T00:00:00.000Z' });
    const [hit] = (await searchFacts(store, null, { text: 'drizzle orm' })).facts;
    expect(hit?.explain.modifiers.recency).toBeCloseTo(Math.exp(-90 / 90), 10);
    const [then] = (await searchFacts(store, null, { text: 'drizzle orm', at: '2025-11-02T00:00:00.000Z' })).facts;
    expect(then?.explain.modifiers.recency).toBeCloseTo(Math.exp(-30 / 90), 10);
  });

  it('scopes by project (global facts always included), relation and memory type', async () => {
    add('zod', 'validation uses zod schemas', { project: 'p1' });
    add('joi', 'validation uses joi schemas', { project: 'p2' });
    add('ajv', 'validation uses ajv schemas');
    expect((await targets({ text: 'validation schemas', projects: ['p1'] })).sort()).toEqual(['ajv', 'zod']);
    expect((await targets({ text: 'validation schemas' })).sort()).toEqual(['ajv', 'joi', 'zod']);
    expect(await targets({ text: 'validation schemas', relations: ['depends_on'] })).toEqual([]);
    expect(await targets({ text: 'validation schemas', memoryTypes: ['episodic'] })).toEqual([]);
    expect((await targets({ text: 'validation schemas', memoryTypes: ['semantic'] })).sort()).toEqual(['ajv', 'joi', 'zod']);
  });

  it('answers as of a time: current, true at an instant, known at an instant, or all history with superseded values halved', async () => {
    const old = add('p95', 'API p95 latency is 240 ms');
    store.advanceDays(10);
    const now = add('p95', 'API p95 latency improved to 180 ms');
    expect(now.action).toBe('superseded');
    expect(await ids({ text: 'API p95 latency' })).toEqual([now.fact.id]);
    expect(await ids({ text: 'API p95 latency', at: '2026-01-05T00:00:00Z' })).toEqual([old.fact.id]);
    expect(await ids({ text: 'API p95 latency', knownAt: '2026-01-05T00:00:00Z' })).toEqual([old.fact.id]);
    expect(await ids({ text: 'API p95 latency', knownAt: '2026-01-20T00:00:00Z' })).toEqual([now.fact.id]);
    const history = (await searchFacts(store, null, { text: 'API p95 latency', includeHistory: true })).facts;
    expect(history.map((h) => h.fact.id)).toEqual([now.fact.id, old.fact.id]);
    expect(history.map((h) => h.explain.modifiers.superseded)).toEqual([undefined, 0.5]);
  });

  it('scopes and scores facts by the same profile inside a search of several collections', async () => {
    const old = add('p95', 'API p95 latency is 240 ms');
    store.advanceDays(10);
    const now = add('p95', 'API p95 latency improved to 180 ms');
    addDocuments(store, [{ id: 'n1', text: 'notes on the API p95 latency', collection: 'memories' }]);
    const res = await search(store, null, {
      query: 'API p95 latency',
      filter: { collections: ['facts', 'memories'] },
      profiles: { facts: factProfile(store, {}) },
    });
    expect(res.results.map((r) => `${r.collection}/${r.id}`).sort()).toEqual([`facts/${now.fact.id}`, 'memories/n1']);
    const fact = res.results.find((r) => r.collection === 'facts');
    expect(fact?.explain.modifiers).toMatchObject({ activation: FRESH, confidence: 0.7, recency: 1 });
    const past = await search(store, null, { query: 'API p95 latency', profiles: { facts: factProfile(store, { at: '2026-01-05' }) } });
    expect(past.results.filter((r) => r.collection === 'facts').map((r) => r.id)).toEqual([String(old.fact.id)]);
  });

  it('fuses the shared vectors at semantic 0.7 / BM25 0.3, embedding at most 20 missing vectors per search', async () => {
    for (let i = 0; i < 25; i++) add(`lib${i}`, `hora uses lib${i} for the topic${i}x work`);
    const embedder = new Embedder(store, hashProvider(64));
    const repaired = async () => (await searchFacts(store, embedder, { text: 'hora work', limit: 30 })).repaired;
    expect(await repaired()).toBe(20);
    expect(await repaired()).toBe(5);
    expect(await repaired()).toBe(0);
    const [hit] = (await searchFacts(store, embedder, { text: 'lib7 topic7x' })).facts;
    expect(hit?.fact.target).toBe('lib7');
    expect(hit?.explain.lists.map((l) => [l.list, l.rank])).toEqual([
      ['bm25', 1],
      ['vector', 1],
    ]);
    expect(hit?.score).toBeCloseTo(((2 * BM25_WEIGHT) / 61 + (2 * SEMANTIC_WEIGHT) / 61) * FRESH * 0.7, 10);
  });

  it('refuses an embedder that returns the wrong number of vectors', async () => {
    const a = add('x', 'some fact here');
    const broken: EmbeddingProvider = { provider: 'test', model: 'broken', dims: 4, batchSize: 8, embed: async () => [] };
    await expect(embedFacts(new Embedder(store, broken), store, [a.fact.id])).rejects.toThrow(/returned 0 vectors for 1 texts/);
  });
});

describe('fact vectors on the shared store', () => {
  it('follow the fact: a new text is embedded again, a deleted fact takes its document along', async () => {
    const a = add('zod', 'hora validates its inputs with zod');
    const embedder = new Embedder(store, hashProvider(64));
    expect(await embedFacts(embedder, store, [a.fact.id])).toBe(1);
    expect(await embedFacts(embedder, store, [a.fact.id])).toBe(0);
    const before = factVectors(store, [a.fact.id], embedder.key).get(a.fact.id);
    expect(cosine(before as Float32Array, hashEmbedding('hora uses zod: hora validates its inputs with zod', 64))).toBeCloseTo(1, 5);
    reconsolidateFact(store, a.fact.id, { description: 'hora parses its config with valibot' });
    expect(factVectors(store, [a.fact.id], embedder.key).size).toBe(0);
    expect(await embedFacts(embedder, store, [a.fact.id])).toBe(1);
    const after = factVectors(store, [a.fact.id], embedder.key).get(a.fact.id);
    expect(cosine(after as Float32Array, hashEmbedding('hora uses zod: hora parses its config with valibot', 64))).toBeCloseTo(1, 5);
    // The graph never deletes a fact: the raw file stands for another writer.
    rawDatabase(store).prepare('DELETE FROM graph_facts WHERE id = ?').run(a.fact.id);
    expect(store.documents.get('facts', String(a.fact.id))).toBeUndefined();
  });

  it('supersede the older of two facts about the same entity with cosine above 0.92, not just below', async () => {
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
    const keywords: EmbeddingProvider = {
      provider: 'test',
      model: 'kw',
      dims: 4,
      batchSize: 8,
      embed: async (texts) => texts.map((t) => new Float32Array(vectors.find(([re]) => re.test(t))?.[1] ?? [0, 0, 0, 0])),
    };
    const embedder = new Embedder(store, keywords);
    const facts = [a, b, c, d].map((r) => r.fact.id);
    expect(await embedFacts(embedder, store, facts)).toBe(4);
    const dups = deduplicateByEmbedding(store, [b.fact.id, d.fact.id], { key: embedder.key });
    expect(dups).toEqual([{ kept: b.fact.id, superseded: a.fact.id, cosine: expect.closeTo(0.95, 5) }]);
    expect(store.graph.facts.get(a.fact.id)).toMatchObject({
      expired_reason: 'duplicate',
      superseded_by: b.fact.id,
      invalid_at: '2026-01-02T00:00:00.000Z',
    });
    expect(store.graph.facts.get(c.fact.id)?.expired_at).toBeNull();
    // Vectors of another model are never compared.
    expect(deduplicateByEmbedding(store, [d.fact.id], { key: 'other' })).toEqual([]);
  });
});

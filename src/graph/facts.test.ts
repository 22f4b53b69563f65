import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact } from './add-fact.js';
import { findEntity } from './entities.js';
import { reconsolidateFact, supersedeFact } from './revise.js';
import { queryFacts, timeline } from './temporal.js';

let store: TestStore;
beforeEach(() => (store = testStore('2026-01-01T00:00:00.000Z')));
afterEach(() => store.cleanup());

const hora = { name: 'hora', type: 'project' };
// Day 1 / Day 15 and the caches below replace their value: the second text says so ("now", "instead")
const add = (target: string, description: string, extra: Record<string, unknown> = {}) =>
  addFact(store, { source: hora, target: { name: target, type: 'concept' }, relation: 'uses', description, ...extra });

describe('adding facts', () => {
  it('upserts both entities, classifies the fact and logs its creation as an access', () => {
    const r = add('fixed expiry', 'HORA expires memories after a fixed thirty days');
    expect(r.action).toBe('created');
    expect(r.fact).toMatchObject({
      source: 'hora',
      target: 'fixed expiry',
      relation: 'uses',
      category: 'technological',
      memory_type: 'semantic',
      confidence: 0.7,
    });
    expect(r.fact.valid_at).toBe('2026-01-01T00:00:00.000Z');
    expect(findEntity(store, 'HORA')?.type).toBe('project');
    expect(store.graph.accesses.times([r.fact.id]).get(r.fact.id)).toEqual(['2026-01-01T00:00:00.000Z']);
  });

  it("dates an entity by when its facts held, not when they were stored (an imported session's day)", () => {
    store.setNow('2026-11-28T09:00:00.000Z');
    add('shadow branch', 'hora keeps checkpoints on a shadow branch', { validAt: '2026-01-12T10:00:00.000Z' });
    add('shadow branch', 'hora pushes the shadow branch with the code', { validAt: '2026-02-03T10:00:00.000Z' });
    expect(findEntity(store, 'shadow branch')).toMatchObject({
      created_at: '2026-01-12T10:00:00.000Z',
      last_seen: '2026-02-03T10:00:00.000Z',
    });
    const doc = store.documents.get('entities', String(findEntity(store, 'shadow branch')?.id));
    expect(doc?.ts).toBe('2026-01-12T10:00:00.000Z');
  });

  it('rejects unknown relations, empty descriptions, bad confidence and bad dates without writing', () => {
    expect(() => addFact(store, { source: hora, target: { name: 'x' }, relation: 'teleports', description: 'd' })).toThrow(
      /Unknown relation/,
    );
    expect(() => add('x', '   ')).toThrow(/needs a description/);
    expect(() => add('x', 'words here', { confidence: 1.2 })).toThrow(/between 0 and 1/);
    expect(() => add('x', 'words here', { validAt: 'last tuesday' })).toThrow(/ISO-8601/);
    expect(() => addFact(store, { source: { name: '  ' }, target: { name: 'x' }, relation: 'uses', description: 'd' })).toThrow(
      /entity name is empty/,
    );
    expect(queryFacts(store)).toHaveLength(0);
  });

  it('normalises legacy relation names', () => {
    expect(
      addFact(store, { source: hora, target: { name: 'graphiti' }, relation: 'involves', description: 'hora draws on graphiti' }).fact
        .relation,
    ).toBe('related_to');
  });

  it('deduplicates by Jaccard above 0.85 and reinforces the existing fact', () => {
    const first = add('drizzle', 'hora stores its relational data with the drizzle orm on sqlite files');
    store.advanceDays(1);
    const again = add('drizzle', 'hora stores its relational data with the drizzle orm on sqlite files too');
    expect(again.action).toBe('duplicate');
    expect(again.fact.id).toBe(first.fact.id);
    expect(store.graph.accesses.times([first.fact.id]).get(first.fact.id)).toHaveLength(2);
    expect(queryFacts(store)).toHaveLength(1);
  });

  it('reconsolidates a semantic fact with new evidence, keeping at most 5 versions', () => {
    const first = addFact(store, {
      source: hora,
      target: { name: 'jsonl' },
      relation: 'uses',
      description: 'HORA memory uses JSONL files for storage',
      confidence: 0.7,
    });
    const enriched = addFact(store, {
      source: hora,
      target: { name: 'jsonl' },
      relation: 'uses',
      description: 'HORA memory uses JSONL files with binary embeddings.bin for storage',
      confidence: 0.9,
    });
    expect(enriched.action).toBe('reconsolidated');
    expect(enriched.fact).toMatchObject({ id: first.fact.id, reconsolidation_count: 1, confidence: 0.9 });
    expect(enriched.fact.history).toEqual([
      { description: 'HORA memory uses JSONL files for storage', confidence: 0.7, reconsolidated_at: '2026-01-01T00:00:00.000Z' },
    ]);
    for (let i = 1; i <= 6; i++)
      reconsolidateFact(store, first.fact.id, { description: `HORA memory storage revision number ${i} with detail ${'x'.repeat(i)}` });
    const fact = store.graph.facts.get(first.fact.id);
    expect(fact?.reconsolidation_count).toBe(7);
    expect(fact?.history).toHaveLength(5);
    expect(fact?.history[0]?.description).toMatch(/revision number 1 /);
    expect(fact?.history[4]?.description).toMatch(/revision number 5 /);
    expect(fact?.description).toMatch(/revision number 6 /);
  });

  it('never reconsolidates an episodic fact', () => {
    const ep = add('auth bug', 'fixed the auth bug on 2026-01-01 in the login form');
    expect(ep.fact.memory_type).toBe('episodic');
    expect(() => reconsolidateFact(store, ep.fact.id, { description: 'something else entirely' })).toThrow(/episodic/);
    const same = add('auth bug', 'fixed the login form auth bug after a long hunt');
    expect(same.action).toBe('created');
    expect(store.graph.facts.get(ep.fact.id)?.description).toBe('fixed the auth bug on 2026-01-01 in the login form');
  });
});

describe('supersession and time travel', () => {
  it("answers the design's Day 1 / Day 15 example in both time dimensions", () => {
    const day1 = add('fixed expiry', 'HORA memory expiration policy is a fixed 30-day expiration');
    store.advanceDays(14);
    const day15 = add('act-r', 'HORA memory expiration policy is now the ACT-R activation model', { validAt: '2026-01-15T00:00:00Z' });
    expect(day15.action).toBe('superseded');
    expect(day15.superseded).toEqual([day1.fact.id]);
    const old = store.graph.facts.get(day1.fact.id);
    expect(old).toMatchObject({
      invalid_at: '2026-01-15T00:00:00.000Z',
      expired_at: '2026-01-15T00:00:00.000Z',
      superseded_by: day15.fact.id,
      expired_reason: 'superseded',
    });

    expect(queryFacts(store).map((f) => f.id)).toEqual([day15.fact.id]);
    expect(queryFacts(store, { at: '2026-01-10T00:00:00Z' }).map((f) => f.id)).toEqual([day1.fact.id]);
    expect(queryFacts(store, { at: '2026-01-15T00:00:00Z' }).map((f) => f.id)).toEqual([day15.fact.id]);
    expect(queryFacts(store, { at: '2025-12-31T00:00:00Z' })).toEqual([]);
    // what did we know on day 10? only the old fact; on day 20, only the new one
    expect(queryFacts(store, { knownAt: '2026-01-10T00:00:00Z' }).map((f) => f.id)).toEqual([day1.fact.id]);
    expect(queryFacts(store, { knownAt: '2026-01-20T00:00:00Z' }).map((f) => f.id)).toEqual([day15.fact.id]);
    expect(timeline(store, day1.fact.source_id).map((f) => f.id)).toEqual([day1.fact.id, day15.fact.id]);
  });

  it('records late knowledge of the past without replacing the present', () => {
    store.setNow('2026-02-01T00:00:00Z');
    const now = add('p95 latency', 'API p95 response time is 120 ms', { validAt: '2026-01-20T00:00:00Z' });
    const late = add('p95 latency', 'API p95 response time is 240 ms', { validAt: '2026-01-05T00:00:00Z' });
    expect(late.action).toBe('historical');
    expect(late.fact.invalid_at).toBe('2026-01-20T00:00:00.000Z');
    expect(store.graph.facts.get(now.fact.id)?.expired_at).toBeNull();
    expect(queryFacts(store).map((f) => f.id)).toEqual([now.fact.id]);
    expect(queryFacts(store, { at: '2026-01-10T00:00:00Z' }).map((f) => f.id)).toEqual([late.fact.id]);
    // it was recorded on Feb 1: the graph did not know it on Jan 25
    expect(queryFacts(store, { knownAt: '2026-01-25T00:00:00Z' })).toEqual([]);
  });

  it('supersedes a restated value of the same attribute (plain changing memories)', () => {
    const a = addFact(store, {
      source: { name: 'report' },
      target: { name: 'deadline' },
      relation: 'related_to',
      description: 'The quarterly report deadline is March 3',
    });
    store.advanceDays(3);
    const b = addFact(store, {
      source: { name: 'report' },
      target: { name: 'deadline' },
      relation: 'related_to',
      description: 'The quarterly report deadline moved to March 10',
    });
    expect(b).toMatchObject({ action: 'superseded', superseded: [a.fact.id] });
    expect(store.graph.facts.get(a.fact.id)?.superseded_by).toBe(b.fact.id);
  });

  it('keeps several values of a multi-valued relation side by side', () => {
    addFact(store, { source: hora, target: { name: 'TypeScript' }, relation: 'uses', description: 'hora uses TypeScript' });
    const zod = addFact(store, { source: hora, target: { name: 'zod' }, relation: 'uses', description: 'hora uses zod' });
    expect(zod.action).toBe('created');
    expect(queryFacts(store)).toHaveLength(2);
    // but another target for the same attribute replaces the old one
    addFact(store, { source: hora, target: { name: 'Jest' }, relation: 'uses', description: 'hora uses Jest for unit testing' });
    const both = addFact(store, {
      source: hora,
      target: { name: 'Vitest' },
      relation: 'uses',
      description: 'hora uses Vitest for unit testing',
    });
    expect(both.action).toBe('created');
    const vitest = addFact(store, {
      source: hora,
      target: { name: 'Mocha' },
      relation: 'uses',
      description: 'hora now uses Mocha for unit testing',
    });
    expect(vitest.action).toBe('superseded');
    expect(vitest.superseded).toHaveLength(2);
    expect(
      queryFacts(store)
        .map((f) => f.target)
        .sort(),
    ).toEqual(['Mocha', 'TypeScript', 'zod']);
    // a single-choice relation needs no "now"
    const user = { name: 'user', type: 'person' };
    addFact(store, { source: user, target: { name: 'tabs' }, relation: 'prefers', description: 'the user prefers tabs for indentation' });
    expect(
      addFact(store, {
        source: user,
        target: { name: 'spaces' },
        relation: 'prefers',
        description: 'the user prefers spaces for indentation',
      }).action,
    ).toBe('superseded');
  });

  it('lets a decision against replace a decision for the same thing', () => {
    const user = { name: 'user', type: 'person' };
    const a = addFact(store, {
      source: user,
      target: { name: 'Prisma', type: 'library' },
      relation: 'decided_for',
      description: 'chose Prisma as the ORM',
    });
    const b = addFact(store, {
      source: user,
      target: { name: 'Prisma', type: 'library' },
      relation: 'decided_against',
      description: 'dropped Prisma: too heavy',
    });
    expect(b).toMatchObject({ action: 'superseded', superseded: [a.fact.id] });
    expect(store.graph.facts.get(a.fact.id)?.expired_reason).toBe('contradicted');
  });

  it('supersedes explicitly with or without a replacement, and refuses to touch a closed fact', () => {
    const a = add('redis', 'hora caches embeddings in redis');
    store.advanceDays(2);
    const r = supersedeFact(store, a.fact.id, {
      replacement: {
        source: hora,
        target: { name: 'lru', type: 'concept' },
        relation: 'uses',
        description: 'hora caches embeddings in an in-process LRU',
      },
    });
    expect(r.superseded).toMatchObject({
      expired_at: '2026-01-03T00:00:00.000Z',
      invalid_at: '2026-01-03T00:00:00.000Z',
      superseded_by: r.replacement?.fact.id,
    });
    expect(() => supersedeFact(store, a.fact.id)).toThrow(/no longer current/);
    expect(() => supersedeFact(store, 9999)).toThrow(/Not found: fact 9999/);
    const b = add('sqlite', 'hora stores everything in one sqlite file', { validAt: '2025-12-20' });
    const retracted = supersedeFact(store, b.fact.id, { invalidAt: '2026-01-02' });
    expect(retracted.superseded).toMatchObject({
      expired_reason: 'retracted',
      invalid_at: '2026-01-02T00:00:00.000Z',
      superseded_by: null,
    });
  });

  it('refuses an invalid_at before the fact became true, and never closes a fact before its valid_at', () => {
    const future = add('valkey', 'hora will cache in valkey', { validAt: '2099-01-01' });
    expect(() => supersedeFact(store, future.fact.id, { invalidAt: '2000-01-01' })).toThrow(
      expect.objectContaining({
        exitCode: 2,
        message: expect.stringContaining(
          '--invalid-at 2000-01-01T00:00:00.000Z is before fact 1 became true (valid_at 2099-01-01T00:00:00.000Z)',
        ),
      }),
    );
    const replacement = {
      source: hora,
      target: { name: 'x', type: 'concept' },
      relation: 'uses' as const,
      description: 'weird',
      validAt: '2100-01-01',
    };
    expect(() => supersedeFact(store, future.fact.id, { invalidAt: '1990-01-01', replacement })).toThrow(/before fact 1 became true/);
    expect(store.graph.facts.get(future.fact.id)?.expired_at).toBeNull();
    expect(queryFacts(store, { at: '2100-06-01' }).map((f) => f.description)).toEqual(['hora will cache in valkey']);
    // Retracted before it would have become true: it was never true, valid_at and invalid_at alike.
    expect(supersedeFact(store, future.fact.id).superseded).toMatchObject({
      valid_at: '2099-01-01T00:00:00.000Z',
      invalid_at: '2099-01-01T00:00:00.000Z',
    });
  });
});

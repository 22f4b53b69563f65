import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact, supersede } from './graph.js';
import { memoryDiff, memoryHealth } from './health.js';
import { edit, feedback, forget, observe } from './instincts.js';
import { invoke } from './operation.js';

let store: TestStore;
const ctx = () => ({ store, env: {} });
beforeEach(() => (store = testStore('2026-01-01T09:00:00.000Z')));
afterEach(() => store.cleanup());

const fact = (source: string, target: string) =>
  invoke(addFact, ctx(), { source, relation: 'uses', target, description: `${source} uses ${target}` });

describe('memory.health', () => {
  it('counts each tier and writes out every quality metric with its healthy range and verdict', () => {
    invoke(observe, ctx(), { pattern: 'pref:pkg=pnpm', count: 40 });
    invoke(observe, ctx(), { pattern: 'seq:lint-test' });
    invoke(feedback, ctx(), { pattern: 'seq:lint-test', verdict: 'wrong' });
    fact('webapp', 'vitest');
    const health = invoke(memoryHealth, ctx(), {});
    const counts = Object.fromEntries(health.tiers.flatMap((t) => t.items.map((i) => [`${t.tier} ${i.label}`, i.count])));
    expect(counts['T2 faded instincts']).toBe(1);
    const learning = ['strong', 'moderate', 'tentative'].map((b) => counts[`T2 ${b} instincts`] ?? 0);
    expect(learning.reduce((a, b) => a + b, 0)).toBe(1);
    expect(counts['T3 current facts']).toBe(1);
    expect(counts['T3 entities stored']).toBe(2);
    expect(counts['T1 observations pending']).toBe(0);
    expect(health.quality.map((q) => q.metric)).toEqual([
      'dedup_ratio',
      'embedding_coverage',
      'average_activation',
      'reconsolidation_rate',
      'retrieval_hit_rate',
      'dream_efficiency',
      'memory_types',
      'average_confidence',
    ]);
    const dedup = health.quality.find((q) => q.metric === 'dedup_ratio');
    expect(dedup).toMatchObject({ value: '0', healthy_range: 'below 0.3', healthy: true });
    // Nothing retrieved yet, no dream cycle run yet: not measured, rather than unhealthy.
    for (const metric of ['reconsolidation_rate', 'retrieval_hit_rate', 'dream_efficiency'])
      expect(health.quality.find((q) => q.metric === metric)).toMatchObject({ value: '0', healthy: null });
    expect(health.quality.find((q) => q.metric === 'memory_types')).toMatchObject({ healthy: null });
  });
});

describe('memory.diff', () => {
  it('tells instincts created, changed and forgotten, and facts added and expired, between two dates', () => {
    invoke(observe, ctx(), { pattern: 'pref:pkg=pnpm', count: 5 });
    invoke(observe, ctx(), { pattern: 'seq:lint-test', count: 5 });
    const old = fact('webapp', 'jest');
    store.setNow('2026-01-10T12:00:00.000Z');
    invoke(observe, ctx(), { pattern: 'seq:lint-test', count: 2 });
    invoke(feedback, ctx(), { pattern: 'pref:pkg=pnpm', verdict: 'wrong' });
    invoke(observe, ctx(), { pattern: 'pref:editor=vim' });
    fact('webapp', 'vitest');
    invoke(supersede, ctx(), { id: old.fact.id });
    store.setNow('2026-01-20T12:00:00.000Z');
    invoke(observe, ctx(), { pattern: 'pref:shell=zsh' });

    const diff = invoke(memoryDiff, ctx(), { from: '2026-01-05', to: '2026-01-10' });
    expect(diff.to).toBe('2026-01-11T00:00:00.000Z');
    expect(diff.instincts.created.map((i) => i.pattern)).toEqual(['pref:editor=vim']);
    expect(diff.instincts.changed.map((i) => i.pattern)).toEqual(['seq:lint-test', 'pref:pkg=pnpm']);
    expect(diff.instincts.changed[0]).toMatchObject({ evidence_added: 2, kinds: ['reinforce'] });
    // Marked wrong by hand: the user's change, though it took the score into the faded band.
    const wrong = diff.instincts.changed[1];
    expect(wrong?.kinds).toEqual(['feedback']);
    expect(wrong?.confidence_before).toBeGreaterThan(0.3);
    expect(wrong?.confidence_after).toBe(0.2);
    expect(diff.instincts.faded).toEqual([]);
    expect(diff.instincts.forgotten).toEqual([]);
    // Each in plain words beside its key.
    expect(diff.instincts.changed[0]).toMatchObject({ trigger: expect.any(String), action: expect.any(String) });
    expect(diff.facts.added.map((f) => f.statement)).toEqual(['webapp uses vitest']);
    expect(diff.facts.expired.map((f) => [f.statement, f.expired_reason])).toEqual([['webapp uses jest', 'retracted']]);

    const before = invoke(memoryDiff, ctx(), { from: '2026-01-01', to: '2026-01-02' });
    expect(before.instincts.created.map((i) => i.pattern).sort()).toEqual(['pref:pkg=pnpm', 'seq:lint-test']);
    expect(before.facts.added).toHaveLength(1);
    expect(before.facts.expired).toHaveLength(0);
  });

  it('says a forgotten instinct as it was and a fact as its description, never as a key or a relation name', () => {
    invoke(observe, ctx(), { pattern: 'pref:pkg=pnpm', count: 5 });
    invoke(edit, ctx(), { pattern: 'pref:pkg=pnpm', trigger: 'when installing packages', action: 'Use pnpm.' });
    invoke(addFact, ctx(), {
      source: 'webapp',
      relation: 'has_component',
      target: 'src/cart.ts',
      description: 'webapp contains the file src/cart.ts',
    });
    store.setNow('2026-01-10T12:00:00.000Z');
    invoke(forget, ctx(), { pattern: 'pref:pkg=pnpm' });
    const diff = invoke(memoryDiff, ctx(), { from: '2026-01-01', to: '2026-01-10' });
    expect(diff.instincts.forgotten).toEqual([
      expect.objectContaining({ pattern: 'pref:pkg=pnpm', trigger: 'when installing packages', action: 'Use pnpm.' }),
    ]);
    expect(diff.facts.added.map((f) => f.statement)).toEqual(['webapp contains the file src/cart.ts']);
  });

  it('dates facts as instincts are, by when they held in the sessions, not when they were stored', () => {
    // An imported history, stored on January 1st: true since a December session, let go as of a later one.
    const add = (target: string, validAt: string) =>
      invoke(addFact, ctx(), { source: 'api', relation: 'uses', target, description: `api uses ${target}`, validAt }).fact.id;
    const jest = add('jest', '2025-12-03T10:00:00.000Z');
    add('fly', '2025-12-20T10:00:00.000Z');
    invoke(supersede, ctx(), { id: jest, invalidAt: '2025-12-20T10:00:00.000Z', by: 'user' });
    const december = invoke(memoryDiff, ctx(), { from: '2025-12-01', to: '2025-12-31' });
    expect(december.facts.added.map((f) => f.statement)).toEqual(['api uses jest', 'api uses fly']);
    expect(december.facts.expired.map((f) => f.statement)).toEqual(['api uses jest']);
    const stored = invoke(memoryDiff, ctx(), { from: '2026-01-01' });
    expect(stored.facts.added).toEqual([]);
    expect(stored.facts.expired).toEqual([]);
  });

  it('refuses dates it cannot read and a range that ends before it starts', () => {
    expect(() => invoke(memoryDiff, ctx(), { from: 'last week', to: '2026-01-10' })).toThrow(/from must be a date such as 2026-03-01/);
    expect(() => invoke(memoryDiff, ctx(), { from: '2026-02-30', to: '2026-03-01' })).toThrow(/from must be a date/);
    expect(() => invoke(memoryDiff, ctx(), { from: '2026-01-10', to: '2026-01-05' })).toThrow(/must come before/);
    expect(() => invoke(memoryDiff, ctx(), {} as never)).toThrow(/from /);
  });

  it('runs to now when no end is given', () => {
    invoke(observe, ctx(), { pattern: 'pref:pkg=pnpm' });
    store.setNow('2026-01-03T12:00:00.000Z');
    const diff = invoke(memoryDiff, ctx(), { from: '2026-01-01' });
    expect(diff.to).toBe('2026-01-03T12:00:00.000Z');
    expect(diff.instincts.created.map((m) => m.pattern)).toEqual(['pref:pkg=pnpm']);
    expect(() => invoke(memoryDiff, ctx(), { from: '2026-01-05' })).toThrow(/must come before to \(2026-01-03T12:00:00.000Z\)/);
  });
});

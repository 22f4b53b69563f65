import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { addFact } from './add-fact.js';
import { expireDecayedFacts, runLifecycle } from './maintenance.js';
import { queryFacts } from './temporal.js';

let store: TestStore;
beforeEach(() => (store = testStore('2026-01-01T00:00:00.000Z')));
afterEach(() => store.cleanup());

const add = (name: string, extra: Record<string, unknown> = {}) =>
  addFact(store, { source: { name: 'app' }, target: { name }, relation: 'related_to', description: `app relates to ${name}`, ...extra })
    .fact.id;

describe('decay expiry', () => {
  it('expires a single-access fact after about 55 days, in the graph dimension only', () => {
    const id = add('old thing');
    store.advanceDays(54);
    expect(expireDecayedFacts(store)).toEqual([]);
    store.advanceDays(1);
    expect(expireDecayedFacts(store)).toEqual([id]);
    expect(store.graph.facts.get(id)).toMatchObject({
      expired_reason: 'decayed',
      invalid_at: null,
      expired_at: '2026-02-25T00:00:00.000Z',
    });
    expect(queryFacts(store)).toEqual([]);
    // forgotten facts do not answer "what was true" either
    expect(queryFacts(store, { at: '2026-01-10T00:00:00Z' })).toEqual([]);
  });

  it('keeps retrieved facts and protects failures', () => {
    const used = add('used thing');
    const failure = addFact(store, {
      source: { name: 'app' },
      target: { name: 'flaky build' },
      relation: 'fails_for',
      description: 'the release script fails for windows paths',
    }).fact.id;
    const correction = add('named exports', { correction: true });
    store.advanceDays(30);
    store.graph.accesses.record([used], store.clock.now().toISOString(), 'retrieval');
    store.advanceDays(40);
    expect(expireDecayedFacts(store)).toEqual([]);
    expect([used, failure, correction].every((id) => store.graph.facts.get(id)?.expired_at === null)).toBe(true);
  });
});

describe('lifecycle GC', () => {
  it('runs at most every 6 hours unless forced', () => {
    expect(runLifecycle(store)).toMatchObject({ ran: true });
    store.setNow('2026-01-01T05:59:00.000Z');
    const skipped = runLifecycle(store);
    expect(skipped.ran).toBe(false);
    expect(skipped.reason).toMatch(/next due 2026-01-01T06:00:00.000Z/);
    expect(runLifecycle(store, { force: true }).ran).toBe(true);
    // forced at 05:59: due again exactly six hours later, not a millisecond before
    store.setNow('2026-01-01T11:58:59.999Z');
    expect(runLifecycle(store).ran).toBe(false);
    store.setNow('2026-01-01T11:59:00.000Z');
    expect(runLifecycle(store).ran).toBe(true);
  });

  it('skips while another live process holds the lock, reclaims it after 60 s of silence or from a dead holder', () => {
    mkdirSync(store.paths.locks, { recursive: true });
    const lock = join(store.paths.locks, 'graph-gc.lock');
    writeFileSync(lock, `${process.ppid} ${new Date().toISOString()}\n`);
    expect(runLifecycle(store)).toMatchObject({ ran: false, reason: 'another graph GC is running' });
    // a holder silent for more than 60 s is abandoned, even if its pid is alive
    const old = new Date(Date.now() - 61_000);
    utimesSync(lock, old, old);
    expect(runLifecycle(store).ran).toBe(true);
    expect(existsSync(lock)).toBe(false);
    writeFileSync(lock, `${2 ** 22 + 12345} ${new Date().toISOString()}\n`);
    expect(runLifecycle(store, { force: true }).ran).toBe(true);
  });

  it('expires, dreams and detects communities in one pass', () => {
    const id = add('forgotten');
    add('kept');
    store.advanceDays(60);
    add('fresh');
    const report = runLifecycle(store);
    expect(report.expired).toContain(id);
    expect(report.dream?.ran).toBe(false);
    expect(report.communities).toBe(1);
  });
});

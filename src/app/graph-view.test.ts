import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addFact } from '../graph/add-fact.js';
import { detectCommunities } from '../graph/communities.js';
import { supersedeFact } from '../graph/revise.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { graphView } from './graph-view.js';
import { InputError, invoke } from './operation.js';

let store: TestStore;
beforeEach(() => (store = testStore('2026-01-01T00:00:00.000Z')));
afterEach(() => store.cleanup());

const view = (input: Record<string, unknown> = {}) => invoke(graphView, { store, env: {} }, input as never);
const fact = (source: string, target: string, description: string) =>
  addFact(store, { source: { name: source, type: 'project' }, target: { name: target, type: 'library' }, relation: 'uses', description })
    .fact;
const names = (v: ReturnType<typeof view>) => v.nodes.map((n) => n.name).sort();

describe('graph.view', () => {
  it('shows the graph as it was true at a date: later facts are absent, facts superseded since are present', () => {
    const zod = fact('shop', 'zod', 'shop validates with zod');
    store.setNow('2026-01-10T00:00:00.000Z');
    const vitest = fact('shop', 'vitest', 'shop tests with vitest');
    store.setNow('2026-01-12T00:00:00.000Z');
    supersedeFact(store, zod.id, {});
    store.setNow('2026-01-20T00:00:00.000Z');

    const before = view({ at: '2026-01-05' });
    expect(before.links.map((l) => l.id)).toEqual([zod.id]);
    expect(names(before)).toEqual(['shop', 'zod']);
    expect(before.nodes.find((n) => n.name === 'shop')).toMatchObject({ type: 'project', degree: 1, recent: false });
    const now = view();
    expect(now.links.map((l) => l.id)).toEqual([vitest.id]);
    expect(now.range).toEqual({ oldest: '2026-01-01T00:00:00.000Z', newest: '2026-01-10T00:00:00.000Z' });
    // Created the day before the instant shown: marked new.
    expect(view({ at: '2026-01-11' }).nodes.find((n) => n.name === 'vitest')?.recent).toBe(true);
  });

  it('places history imported today on the day it happened, and marks new only what became true lately', () => {
    store.setNow('2026-03-01T00:00:00.000Z');
    // Recorded today, true since a session in January.
    addFact(store, {
      source: { name: 'shop', type: 'project' },
      target: { name: 'pnpm', type: 'tool' },
      relation: 'uses',
      description: 'shop installs with pnpm',
      validAt: '2026-01-15T10:00:00.000Z',
    });
    expect(names(view({ at: '2026-01-20' }))).toEqual(['pnpm', 'shop']);
    expect(view({ at: '2026-01-10' }).nodes).toEqual([]);
    const today = view();
    expect(today.nodes.map((n) => n.recent)).toEqual([false, false]);
    expect(today.tiers.recent).toBe(0);
    expect(today.range?.oldest).toBe('2026-01-15T10:00:00.000Z');
    expect(view({ at: '2026-01-16' }).nodes.every((n) => n.recent)).toBe(true);
  });

  it('keeps the most activated nodes under the cap, says what each community hides, and expands one on request', () => {
    const ab = fact('atlas', 'bolt', 'atlas renders charts with bolt');
    fact('comet', 'dune', 'comet parses yaml through dune');
    const ef = fact('ember', 'fjord', 'ember signs tokens using fjord');
    store.setNow('2026-01-03T00:00:00.000Z');
    for (let i = 0; i < 5; i++) store.graph.accesses.record([ab.id], '2026-01-02T00:00:00.000Z', 'retrieval');
    store.graph.accesses.record([ef.id], '2026-01-02T00:00:00.000Z', 'retrieval');
    const communities = detectCommunities(store);
    const cd = communities.find((c) => c.entities.includes('comet'));

    const top = view({ limit: 2 });
    expect(names(top)).toEqual(['atlas', 'bolt']);
    expect(top.total_nodes).toBe(6);
    expect(top.links.map((l) => l.id)).toEqual([ab.id]);
    const four = view({ limit: 4 });
    expect(names(four)).toEqual(['atlas', 'bolt', 'ember', 'fjord']);
    expect(top.hidden_communities.map((c) => [c.name, c.hidden]).sort()).toEqual([
      [expect.stringMatching(/^(comet|dune)$/), 2],
      [expect.stringMatching(/^(ember|fjord)$/), 2],
    ]);
    expect(names(view({ limit: 2, expand: [cd?.id] }))).toEqual(['atlas', 'bolt', 'comet', 'dune']);
    // Activation grows with accesses: atlas outranks ember.
    const activationOf = (name: string) => four.nodes.find((n) => n.name === name)?.activation ?? NaN;
    expect(activationOf('atlas')).toBeGreaterThan(activationOf('ember'));
  });

  it('filters by entity name, keeping the matches and their neighbours', () => {
    fact('shop', 'zod', 'shop validates with zod');
    fact('blog', 'vitest', 'blog tests with vitest');
    const found = view({ q: 'ZO' });
    expect(names(found)).toEqual(['shop', 'zod']);
    expect(found.nodes.filter((n) => n.match).map((n) => n.name)).toEqual(['zod']);
    expect(view({ q: 'nothing-like-it' }).nodes).toEqual([]);
  });

  it('counts the tiers: facts by memory type, recent facts, entities', () => {
    fact('shop', 'zod', 'shop validates with zod');
    store.setNow('2026-01-10T00:00:00.000Z');
    fact('shop', 'vitest', 'shop tests with vitest');
    const tiers = view().tiers;
    expect(tiers.recent).toBe(1);
    expect(tiers.entities).toBe(3);
    expect(tiers.episodic + tiers.semantic + tiers.procedural).toBe(2);
  });

  it("ranks an entity by ACT-R over all its facts' accesses: ln of the summed t^-0.5", () => {
    fact('shop', 'zod', 'shop validates with zod');
    store.setNow('2026-01-10T00:00:00.000Z');
    fact('shop', 'vitest', 'shop tests with vitest');
    const activationOf = (name: string) => view().nodes.find((n) => n.name === name)?.activation;
    // Accessed 9 days ago (9^-0.5 = 1/3) and today (counted as 1 day).
    expect(activationOf('zod')).toBeCloseTo(Math.log(1 / 3), 3);
    expect(activationOf('vitest')).toBeCloseTo(0, 3);
    expect(activationOf('shop')).toBeCloseTo(Math.log(1 + 1 / 3), 3);
  });

  it('refuses a date that is not one, a bad cap and a bad community, with the field named', () => {
    expect(() => view({ at: 'last tuesday' })).toThrow(InputError);
    expect(() => view({ at: '2026-02-31' })).toThrow(/at must be an ISO-8601 date/);
    expect(() => view({ limit: 0 })).toThrow(/limit must be a whole number from 1/);
    expect(() => view({ expand: ['x'] })).toThrow(/expand/);
  });
});

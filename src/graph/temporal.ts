/**
 * Time travel over bi-temporal facts: current (held now and true now), true at T (what the
 * graph now believes was true at T), or known at K (what the graph held at K, true at T,
 * T defaulting to K: the graph as a query at K would have answered).
 */
import type { FactTime } from '../store/graph/index.js';
import type { Store } from '../store/store.js';
import type { Fact } from './facts.js';
import type { Relation } from './ontology.js';

interface FactQuery {
  /** Valid time: what was true at this instant. */
  at?: string;
  /** Transaction time: what the graph held at this instant. */
  knownAt?: string;
  entityId?: number;
  relation?: Relation;
  project?: string;
  limit?: number;
}

/** The time a query asks about: known at, else true at, else current now. */
export function factTime(q: Pick<FactQuery, 'at' | 'knownAt'>, now: Date): FactTime {
  if (q.knownAt) return { knownAt: q.knownAt, at: q.at ?? q.knownAt };
  if (q.at) return { at: q.at };
  return { now: now.toISOString() };
}

export function queryFacts(store: Store, q: FactQuery = {}): Fact[] {
  return store.graph.facts.list(factFilter(store, q), {
    order: 'latest-valid',
    limit: q.limit !== undefined && q.limit > 0 ? Math.trunc(q.limit) : undefined,
  });
}

/** How many facts the query matches without its limit, so a cut list can say so. */
export function countFacts(store: Store, q: Omit<FactQuery, 'limit'> = {}): number {
  return store.graph.facts.count(factFilter(store, q));
}

const factFilter = (store: Store, q: FactQuery) => ({
  time: factTime(q, store.clock.now()),
  entityId: q.entityId,
  relations: q.relation ? [q.relation] : undefined,
  project: q.project,
});

/** Every fact about an entity, current or not, in the order they became true. */
export function timeline(store: Store, entityId: number): Fact[] {
  return store.graph.facts.list({ entityId }, { order: 'valid' });
}

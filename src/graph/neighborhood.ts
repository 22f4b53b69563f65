/**
 * Breadth-first expansion around entities (getNeighborhood): the facts within
 * `depth` hops, current (or true at a past instant). Hubs would flood it (a project node
 * touches everything), so hubs are not traversed, each entity contributes its strongest
 * few facts, and each level keeps a bounded frontier.
 */
import type { Store } from '../store/store.js';
import type { Fact } from './facts.js';
import { factTime } from './temporal.js';

interface NeighbourFact {
  fact: Fact;
  depth: number;
}

interface NeighbourhoodOptions {
  depth?: number;
  perEntity?: number;
  maxFrontier?: number;
  /** Entities with more facts than this are hubs: not expanded. */
  maxDegree?: number;
  at?: string;
  knownAt?: string;
  projects?: readonly string[];
}

export function neighbourhood(store: Store, seeds: readonly number[], options: NeighbourhoodOptions = {}): NeighbourFact[] {
  const depth = options.depth ?? 2;
  const perEntity = options.perEntity ?? 10;
  const maxFrontier = options.maxFrontier ?? 10;
  const maxDegree = options.maxDegree ?? 50;
  const facts = store.graph.facts;
  const time = factTime(options, store.clock.now());
  const seenEntities = new Set(seeds);
  const seenFacts = new Set<number>();
  const out: NeighbourFact[] = [];
  let frontier = [...new Set(seeds)].slice(0, maxFrontier);
  for (let level = 1; level <= depth && frontier.length > 0; level++) {
    const next: number[] = [];
    for (const entity of frontier) {
      if (facts.degree(entity) > maxDegree) continue;
      const around = facts.list(
        { entityId: entity, time, projects: options.projects },
        { order: 'strongest', limit: Math.trunc(perEntity) },
      );
      for (const fact of around) {
        if (seenFacts.has(fact.id)) continue;
        seenFacts.add(fact.id);
        out.push({ fact, depth: level });
        for (const other of [fact.source_id, fact.target_id]) {
          if (!seenEntities.has(other)) {
            seenEntities.add(other);
            next.push(other);
          }
        }
      }
    }
    frontier = next.slice(0, maxFrontier);
  }
  return out;
}

/**
 * Memory quality metrics, with the design's healthy ranges:
 *
 *   dedup ratio            superseded / total facts                          < 0.3
 *   embedding coverage     (facts + entities with a vector) / (facts + entities)  > 0.8
 *   average activation     mean ACT-R activation of current facts             > -1.0
 *   reconsolidation rate   current facts reconsolidated at least once         0.1 - 0.3
 *   retrieval hit rate     min(1, facts ever retrieved / current facts)       > 0.5
 *   dream efficiency       distilled facts / episodes                         > 0.1
 *   type distribution      episodic / semantic / procedural
 *   average confidence     mean confidence of current facts                   > 0.6
 *
 * "Superseded" counts facts replaced by another (superseded, contradicted, duplicate);
 * facts forgotten by decay are reported apart. Coverage counts current facts.
 */
import { ENTITIES_COLLECTION, FACTS_COLLECTION } from '../core/graph-vocabulary.js';
import { round } from '../core/text.js';
import type { Store } from '../store/store.js';
import { activations } from './access.js';

export interface GraphStats {
  entities: number;
  facts: { total: number; current: number; superseded: number; decayed: number; retracted: number };
  episodes: { total: number; consolidated: number };
  communities: number;
  dedup_ratio: number;
  embedding_coverage: number;
  average_activation: number | null;
  reconsolidation_rate: number;
  retrieval_hit_rate: number;
  dream_efficiency: number;
  distilled_facts: number;
  memory_types: { episodic: number; semantic: number; procedural: number; unclassified: number };
  average_confidence: number | null;
  healthy: Record<
    | 'dedup_ratio'
    | 'embedding_coverage'
    | 'average_activation'
    | 'reconsolidation_rate'
    | 'retrieval_hit_rate'
    | 'dream_efficiency'
    | 'average_confidence',
    /** null: nothing to measure yet (no facts, nothing retrieved yet, no dream cycle run yet), not unhealthy. */
    boolean | null
  >;
}

/** Each metric's healthy range in words, as the checks at the end of graphStats apply it. */
export const HEALTHY_RANGES: Readonly<Record<keyof GraphStats['healthy'] | 'memory_types', string>> = {
  dedup_ratio: 'below 0.3',
  embedding_coverage: 'above 0.8',
  average_activation: 'above -1.0',
  reconsolidation_rate: 'from 0.1 to 0.3',
  retrieval_hit_rate: 'above 0.5',
  dream_efficiency: 'above 0.1',
  memory_types: 'balanced (not judged)',
  average_confidence: 'above 0.6',
};

const ratio = (n: number, d: number): number => (d > 0 ? round(n / d, 3) : 0);

/** Current facts and entities whose search documents have a vector (of any model). */
function embedded(store: Store, current: readonly { id: number }[]): number {
  const facts = store.documents.embeddedCount(
    FACTS_COLLECTION,
    current.map((f) => String(f.id)),
  );
  return facts + store.documents.embeddedCount(ENTITIES_COLLECTION);
}

export function graphStats(store: Store): GraphStats {
  const { accesses, communities, entities, episodes: graphEpisodes, facts } = store.graph;
  const now = store.clock.now();
  const totals = facts.totals();
  const superseded = totals.expired.superseded + totals.expired.contradicted + totals.expired.duplicate;
  const distilled = totals.origins.dream;
  const current = facts.summaries({ time: { now: now.toISOString() } });
  const entityCount = entities.count();
  const episodes = graphEpisodes.count();

  const finite = [...activations(store, current, now).values()].filter(Number.isFinite);
  const types = { episodic: 0, semantic: 0, procedural: 0, unclassified: 0 };
  for (const f of current) types[f.memory_type] = (types[f.memory_type] ?? 0) + 1;
  const retrieved = current.length ? accesses.retrievedCount(current.map((f) => f.id)) : 0;

  const stats: Omit<GraphStats, 'healthy'> = {
    entities: entityCount,
    facts: {
      total: totals.total,
      current: current.length,
      superseded,
      decayed: totals.expired.decayed,
      retracted: totals.expired.retracted,
    },
    episodes,
    communities: communities.count(),
    dedup_ratio: ratio(superseded, totals.total),
    embedding_coverage: ratio(embedded(store, current), current.length + entityCount),
    average_activation: finite.length ? round(finite.reduce((s, a) => s + a, 0) / finite.length, 3) : null,
    reconsolidation_rate: ratio(current.filter((f) => f.reconsolidation_count > 0).length, current.length),
    retrieval_hit_rate: Math.min(1, ratio(retrieved, current.length)),
    dream_efficiency: ratio(distilled, episodes.total),
    distilled_facts: distilled,
    memory_types: types,
    average_confidence: current.length ? round(current.reduce((s, f) => s + f.confidence, 0) / current.length, 3) : null,
  };
  // A young memory is not an unhealthy one: a rate with nothing behind it yet is not judged.
  const judged = (measured: boolean, ok: boolean): boolean | null => (measured ? ok : null);
  const hasFacts = current.length > 0;
  return {
    ...stats,
    healthy: {
      dedup_ratio: judged(totals.total > 0, stats.dedup_ratio < 0.3),
      embedding_coverage: judged(current.length + entityCount > 0, stats.embedding_coverage > 0.8),
      average_activation: judged(stats.average_activation !== null, (stats.average_activation ?? 0) > -1),
      // Facts are reconsolidated when retrieved: before any retrieval there is nothing to rate.
      reconsolidation_rate: judged(retrieved > 0, stats.reconsolidation_rate >= 0.1 && stats.reconsolidation_rate <= 0.3),
      retrieval_hit_rate: judged(hasFacts && retrieved > 0, stats.retrieval_hit_rate > 0.5),
      dream_efficiency: judged(episodes.consolidated > 0, stats.dream_efficiency > 0.1),
      average_confidence: judged(hasFacts, (stats.average_confidence ?? 0) > 0.6),
    },
  };
}

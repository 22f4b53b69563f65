/**
 * The dream cycle, applied: recent unconsolidated episodes are replayed, recurring facts
 * reinforced, recurring entities distilled into semantic facts, episodes marked
 * consolidated. Decisions are in dream-plan.ts.
 */
import { DAY_MS } from '../core/clock.js';
import type { Store } from '../store/store.js';
import { addFact } from './add-fact.js';
import { type Fact, isCurrent, reconsolidateRow } from './facts.js';
import { isMutable } from './memory-type.js';
import { RELATION_LABELS, type Relation } from './ontology.js';
import {
  type ClusterPlan,
  type DreamEpisode,
  DREAM_WINDOW_DAYS,
  MIN_EPISODES_FOR_DREAM,
  clusterEpisodes,
  planCluster,
} from './dream-plan.js';

/** Confidence never reaches certainty through repetition alone. */
const MAX_REINFORCED_CONFIDENCE = 0.95;

export interface DreamReport {
  ran: boolean;
  reason: string;
  episodes: number;
  clusters: number;
  reinforced: { fact: number; count: number; from: number; to: number }[];
  distilled: { fact: number; source: string; target: string; count: number; confidence: number; updated: boolean }[];
  consolidated: number;
}

/**
 * The relation most often linking two entities in these facts, and its direction (the
 * distilled fact keeps it: "cli uses gh", not "gh uses cli"); related_to from the hub by default.
 */
function dominantRelation(facts: readonly Fact[], hub: number, other: number): { relation: Relation; fromHub: boolean } {
  const counts = new Map<string, number>();
  for (const f of facts) {
    if (f.source_id === hub && f.target_id === other) counts.set(`${f.relation}>`, (counts.get(`${f.relation}>`) ?? 0) + 1);
    if (f.source_id === other && f.target_id === hub) counts.set(`${f.relation}<`, (counts.get(`${f.relation}<`) ?? 0) + 1);
  }
  const best = [...counts.entries()].sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))[0]?.[0];
  return best ? { relation: best.slice(0, -1) as Relation, fromHub: best.endsWith('>') } : { relation: 'related_to', fromHub: true };
}

function mostCommon(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
}

/** Facts seen again across the cluster gain confidence (episodic facts stay as they were). */
function reinforce(store: Store, plan: ClusterPlan, now: Date, report: DreamReport): void {
  for (const r of plan.reinforce) {
    const fact = store.graph.facts.get(r.factId);
    if (!fact || !isCurrent(fact, now) || !isMutable(fact.memory_type)) continue;
    const to = Math.min(MAX_REINFORCED_CONFIDENCE, fact.confidence + r.boost);
    if (to <= fact.confidence) continue;
    reconsolidateRow(store, fact, { confidence: to }, now.toISOString());
    report.reinforced.push({ fact: fact.id, count: r.count, from: fact.confidence, to });
  }
}

/**
 * Recurring entities become semantic facts linked to the hub; a link distilled before is
 * updated instead. False when the hub is gone (the cluster then stays unconsolidated).
 */
function distil(store: Store, cluster: readonly DreamEpisode[], plan: ClusterPlan, at: string, report: DreamReport): boolean {
  const { entities, facts } = store.graph;
  const clusterFacts = facts.byIds(cluster.flatMap((e) => e.facts));
  const hub = entities.get(plan.hub);
  if (!hub) return false;
  const project = mostCommon(clusterFacts.map((f) => f.project).filter(Boolean));
  for (const d of plan.distill) {
    const target = entities.get(d.entityId);
    if (!target) continue;
    const { relation, fromHub } = dominantRelation(clusterFacts, hub.id, target.id);
    const [from, to] = fromHub ? [hub, target] : [target, hub];
    // No count in the text: a later fact with a number must not read as a restated value.
    const description = `${from.name} consistently ${RELATION_LABELS[relation]} ${to.name}, across sessions`;
    const metadata = { context: `Distilled from ${d.count} episodes via dream cycle`, episodes: plan.episodes, count: d.count };
    const previous = facts.list(
      { origin: 'dream', sourceId: from.id, targetId: to.id, relations: [relation], time: { now: at } },
      { limit: 1 },
    )[0];
    if (previous) reconsolidateRow(store, previous, { description, confidence: Math.max(previous.confidence, d.confidence) }, at);
    const fact =
      previous?.id ??
      addFact(store, {
        source: { name: from.name },
        target: { name: to.name },
        relation,
        description,
        confidence: d.confidence,
        memoryType: 'semantic',
        origin: 'dream',
        project,
        metadata,
        noMerge: true,
      }).fact.id;
    report.distilled.push({
      fact,
      source: from.name,
      target: to.name,
      count: d.count,
      confidence: d.confidence,
      updated: previous !== undefined,
    });
  }
  return true;
}

export function runDreamCycle(store: Store): DreamReport {
  const now = store.clock.now();
  const nowIso = now.toISOString();
  const since = new Date(now.getTime() - DREAM_WINDOW_DAYS * DAY_MS).toISOString();
  const graphEpisodes = store.graph.episodes;
  const episodes = graphEpisodes.pending(since);
  const report: DreamReport = {
    ran: false,
    reason: '',
    episodes: episodes.length,
    clusters: 0,
    reinforced: [],
    distilled: [],
    consolidated: 0,
  };
  if (episodes.length < MIN_EPISODES_FOR_DREAM) {
    report.reason = `${episodes.length} unconsolidated episode(s) in the last ${DREAM_WINDOW_DAYS} days; the dream cycle needs ${MIN_EPISODES_FOR_DREAM}`;
    return report;
  }
  const degree = (id: number): number => store.graph.facts.count({ entityId: id, time: { now: nowIso } });

  return store.transaction(() => {
    report.ran = true;
    for (const cluster of clusterEpisodes(episodes)) {
      const plan = planCluster(cluster, degree);
      if (!plan) continue;
      report.clusters++;
      reinforce(store, plan, now, report);
      if (!distil(store, cluster, plan, nowIso, report)) continue;
      graphEpisodes.markConsolidated(plan.episodes, nowIso);
      report.consolidated += plan.episodes.length;
    }
    report.reason = report.clusters
      ? `${report.clusters} cluster(s) of 3+ related episodes replayed`
      : 'no cluster of 3+ episodes sharing 2+ entities';
    return report;
  });
}

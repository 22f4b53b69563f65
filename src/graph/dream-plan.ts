/**
 * The dream cycle's decisions (hippocampal replay), pure:
 *
 *   1. episodes sharing 2+ entities fall into the same cluster (transitively);
 *   2. in a cluster of 3+ episodes, a fact seen in 3+ episodes is reinforced by
 *      0.05 x (count - 2);
 *   3. an entity seen in 3+ episodes is distilled into a semantic fact from the cluster's
 *      hub (the entity in the most episodes) at confidence min(0.9, 0.6 + 0.1 x (count - 2)),
 *      at most 3 new facts per cluster, most frequent first.
 */

export const MIN_EPISODES_FOR_DREAM = 5;
export const DREAM_WINDOW_DAYS = 7;
const MIN_SHARED_ENTITIES = 2;
const PATTERN_THRESHOLD = 3;
export const MAX_NEW_FACTS_PER_CLUSTER = 3;
const CONFIDENCE_BOOST = 0.05;

export interface DreamEpisode {
  id: number;
  entities: readonly number[];
  facts: readonly number[];
}

export const reinforcementBoost = (count: number): number => (count >= PATTERN_THRESHOLD ? CONFIDENCE_BOOST * (count - 2) : 0);

export const distilledConfidence = (count: number): number => Math.min(0.9, 0.6 + 0.1 * (count - 2));

/** Union-find over episodes that share at least `minShared` entities; clusters in input order. */
export function clusterEpisodes(episodes: readonly DreamEpisode[], minShared = MIN_SHARED_ENTITIES): DreamEpisode[][] {
  const parent = episodes.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i] as number] as number;
    return i;
  };
  const sets = episodes.map((e) => new Set(e.entities));
  for (let i = 0; i < episodes.length; i++) {
    for (let j = i + 1; j < episodes.length; j++) {
      let shared = 0;
      for (const e of sets[i] as Set<number>) if ((sets[j] as Set<number>).has(e) && ++shared >= minShared) break;
      if (shared >= minShared) parent[find(j)] = find(i);
    }
  }
  const groups = new Map<number, DreamEpisode[]>();
  episodes.forEach((e, i) => {
    const root = find(i);
    const g = groups.get(root);
    if (g) g.push(e);
    else groups.set(root, [e]);
  });
  return [...groups.values()];
}

export interface ClusterPlan {
  episodes: number[];
  hub: number;
  reinforce: { factId: number; count: number; boost: number }[];
  distill: { entityId: number; count: number; confidence: number }[];
}

function countIn(episodes: readonly DreamEpisode[], pick: (e: DreamEpisode) => readonly number[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const e of episodes) for (const id of new Set(pick(e))) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

/** Plans one cluster; undefined when it has fewer than 3 episodes. `degree` breaks ties. */
export function planCluster(episodes: readonly DreamEpisode[], degree: (entityId: number) => number = () => 0): ClusterPlan | undefined {
  if (episodes.length < PATTERN_THRESHOLD) return undefined;
  const factCounts = countIn(episodes, (e) => e.facts);
  const entityCounts = countIn(episodes, (e) => e.entities);
  const ranked = [...entityCounts.entries()].sort((a, b) => b[1] - a[1] || degree(b[0]) - degree(a[0]) || a[0] - b[0]);
  const hub = ranked[0]?.[0];
  if (hub === undefined) return undefined;
  return {
    episodes: episodes.map((e) => e.id),
    hub,
    reinforce: [...factCounts.entries()]
      .filter(([, n]) => n >= PATTERN_THRESHOLD)
      .sort((a, b) => a[0] - b[0])
      .map(([factId, count]) => ({ factId, count, boost: reinforcementBoost(count) })),
    distill: ranked
      .filter(([id, n]) => id !== hub && n >= PATTERN_THRESHOLD)
      .slice(0, MAX_NEW_FACTS_PER_CLUSTER)
      .map(([entityId, count]) => ({ entityId, count, confidence: distilledConfidence(count) })),
  };
}

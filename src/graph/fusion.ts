/**
 * Reciprocal Rank Fusion, pure: score(d) = Σ_lists weight / (k + rank), ranks
 * 1-based, a list that misses d adds nothing. Seed weights: semantic 0.7, BM25 0.3, k 60.
 * The term is search's (one definition); the graph adds no qmd bonus and breaks ties by
 * best rank, so a fact first in one list beats one second in both at equal score.
 */
import { RRF_K, rrfTerm } from '../search/fusion.js';

export const SEMANTIC_WEIGHT = 0.7;
export const BM25_WEIGHT = 0.3;

export interface RankedIds {
  ids: readonly number[];
  weight: number;
}

/** Fused scores, best first (ties: better best rank, then lower id). */
export function reciprocalRankFusion(lists: readonly RankedIds[], k = RRF_K): { id: number; score: number }[] {
  const scores = new Map<number, number>();
  const bestRank = new Map<number, number>();
  for (const list of lists) {
    list.ids.forEach((id, i) => {
      if (i > 0 && list.ids.indexOf(id) < i) return; // a repeated id counts once, at its best rank
      scores.set(id, (scores.get(id) ?? 0) + rrfTerm(i + 1, list.weight, k));
      bestRank.set(id, Math.min(bestRank.get(id) ?? Number.POSITIVE_INFINITY, i + 1));
    });
  }
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || (bestRank.get(a.id) ?? 0) - (bestRank.get(b.id) ?? 0) || a.id - b.id);
}

/** The recency factor: exp(-days / 90) (one definition, in search). */
export { recencyDecay } from '../search/modifiers.js';

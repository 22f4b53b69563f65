/**
 * Fusion: RRF of the lists (k = 60, original-query lists 2x, the top-rank bonus) in hybrid
 * mode; a single-list mode ranks by that list's own score. Scores are normalised by the
 * best fused score (unless the tuning keeps them raw), and the documents of the head are read for the stages after.
 */
import type { DocumentRow } from '../../store/documents/index.js';
import { type RankedList, fuseRrf } from '../fusion.js';
import type { HitExplain } from '../search.js';
import type { ScoredId } from '../vectors.js';
import type { LexicalLists } from './lists.js';
import type { Pass } from './pass.js';

export interface Fusion {
  /** Scores by document row id. */
  scores: Map<number, number>;
  /** The documents of the scored ids (the expansion adds the neighbours it brings). */
  rows: Map<number, DocumentRow>;
  /** A hit's ranks and scores in each list, its fused score and its rank bonus. */
  explain(id: number): Pick<HitExplain, 'lists' | 'fused' | 'bonus'>;
}

/** Undefined when no list found anything. */
export function fusionStage(
  pass: Pass,
  lists: readonly RankedList[],
  lexical: LexicalLists,
  dense: readonly ScoredId[],
): Fusion | undefined {
  const { plan } = pass;
  const fused = fuseRrf(lists, { bonus: plan.tuning.rankBonus });
  if (fused.length === 0) return undefined;
  // Relative scores are shares of the best; raw ones stay comparable across queries.
  const top = plan.tuning.relativeScores ? (fused[0]?.score ?? 1) : 1;
  const scores = new Map<number, number>();
  if (plan.mode === 'bm25') lexical.bm25.ids.forEach((id, i) => scores.set(id, lexical.normalized[i] ?? 0));
  else if (plan.mode === 'vector') dense.forEach((d) => scores.set(d.id, d.score));
  // Later stages only reorder the head: the tail past 3x the limit is dropped before rows are read.
  else for (const f of fused.slice(0, Math.max(plan.limit * 3, 60))) scores.set(f.id, f.score / top);
  const rows = pass.documents.byRowIds([...scores.keys()]);
  const byId = new Map(fused.map((f) => [f.id, f]));
  pass.lap('fusion');
  return {
    scores,
    rows,
    explain(id) {
      const f = byId.get(id);
      return {
        lists: f?.contributions.map((c) => ({ list: c.list, rank: c.rank, score: c.score })) ?? [],
        fused: f ? f.rrf / top : 0,
        bonus: f ? f.bonus / top : 0,
      };
    },
  };
}

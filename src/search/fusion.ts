/**
 * Reciprocal Rank Fusion with qmd's refinements. Pure: ranked lists in, scores out.
 *
 *   rrf(d) = Σ_lists  weight_l / (k + rank_l(d))          k = 60, ranks 1-based
 *   bonus(d) = +0.05 when d is rank 1 in an original-query list, +0.02 for ranks 2-3
 *
 * The original query's lists weigh 2x; lists from rewrites or feedback weigh less.
 */

export const RRF_K = 60;
export const ORIGINAL_QUERY_WEIGHT = 2;
export const RANK1_BONUS = 0.05;
export const RANK23_BONUS = 0.02;
/** qmd: BM25 is "strong" when the top hit normalises to >= 0.85 and leads the second by >= 0.15. */
export const STRONG_SIGNAL_MIN_SCORE = 0.85;
export const STRONG_SIGNAL_MIN_GAP = 0.15;

export interface RankedList {
  /** e.g. 'bm25', 'vector', 'trigram', 'prf'. */
  name: string;
  /** Document ids, best first. */
  ids: readonly number[];
  /** Raw scores aligned with ids (shown by --explain). */
  scores?: readonly number[];
  weight: number;
  /** Per-document factors of the weight, aligned with ids (default 1); a factor below 1 earns no rank bonus. */
  factors?: readonly number[];
  /** Lists of the original query earn the rank bonus. */
  original: boolean;
}

export interface ListContribution {
  list: string;
  rank: number;
  score: number | undefined;
  contribution: number;
}

export interface Fused {
  id: number;
  rrf: number;
  bonus: number;
  score: number;
  contributions: ListContribution[];
}

/** weight / (k + rank), rank 1-based. */
export function rrfTerm(rank: number, weight = 1, k = RRF_K): number {
  return weight / (k + rank);
}

/** The qmd top-rank bonus for a document's best rank among original-query lists. */
export function rankBonus(bestRank: number | undefined): number {
  if (bestRank === undefined) return 0;
  if (bestRank === 1) return RANK1_BONUS;
  if (bestRank <= 3) return RANK23_BONUS;
  return 0;
}

/** Fuses ranked lists; the result is sorted best first (ties keep the smaller id first). */
export function fuseRrf(lists: readonly RankedList[], options: { k?: number; bonus?: boolean } = {}): Fused[] {
  const k = options.k ?? RRF_K;
  const byId = new Map<number, Fused & { bestOriginal?: number }>();
  for (const list of lists) {
    list.ids.forEach((id, i) => {
      const rank = i + 1;
      let entry = byId.get(id);
      if (!entry) {
        entry = { id, rrf: 0, bonus: 0, score: 0, contributions: [] };
        byId.set(id, entry);
      }
      const factor = list.factors?.[i] ?? 1;
      const contribution = rrfTerm(rank, list.weight * factor, k);
      entry.rrf += contribution;
      entry.contributions.push({ list: list.name, rank, score: list.scores?.[i], contribution });
      if (list.original && factor >= 1 && (entry.bestOriginal === undefined || rank < entry.bestOriginal)) entry.bestOriginal = rank;
    });
  }
  const fused: Fused[] = [];
  for (const entry of byId.values()) {
    const bonus = options.bonus === false ? 0 : rankBonus(entry.bestOriginal);
    fused.push({ id: entry.id, rrf: entry.rrf, bonus, score: entry.rrf + bonus, contributions: entry.contributions });
  }
  return fused.sort((a, b) => b.score - a.score || a.id - b.id);
}

/** qmd's BM25 normalisation: |x| / (1 + |x|), monotonic and query independent, in [0, 1). */
export function normalizeBm25(raw: number): number {
  const a = Math.abs(raw);
  return a / (1 + a);
}

/** True when the top BM25 hit is strong enough to skip the dense list (qmd's shortcut). */
export function isStrongBm25(normalizedScores: readonly number[]): boolean {
  const top = normalizedScores[0];
  if (top === undefined) return false;
  const second = normalizedScores[1] ?? 0;
  return top >= STRONG_SIGNAL_MIN_SCORE && top - second >= STRONG_SIGNAL_MIN_GAP;
}

/**
 * The pipeline's knobs, with the defaults measured on the LoCoMo turn-level benchmark
 * (see BENCHMARKS.md). Nothing here knows about any dataset: they are weights of generic
 * stages, chosen by measurement and kept only where they helped.
 */

export interface Tuning {
  /** Candidates read from each list. */
  depth: number;
  weights: { bm25: number; vector: number; trigram: number; feedback: number };
  /** Pseudo-relevance feedback: expansion words from the top `docs` lexical hits. */
  prf: { docs: number; terms: number } | null;
  /** Neighbour spreading within a thread (see context-expansion.ts). */
  neighbours: { seeds: number; weight: number; radius: number } | null;
  /** Documents dated in (or just after) a period the query names gain this much (see time-hints.ts). */
  time: { weight: number } | null;
  /** Thread evidence (see context-expansion.ts). */
  thread: { depth: number; weight: number } | null;
  /** Speaker focus (see speakers.ts): documents of a speaker the query does not name keep `factor` of their score. */
  speakers: { factor: number } | null;
  /** Drop common query words while rarer ones remain (lexical.ts: cheaper BM25 on large stores). */
  dropCommonTerms: boolean;
  /** qmd's strong-BM25 shortcut: skip the dense list when one lexical hit clearly wins. */
  strongShortcut: boolean;
  /** qmd's +0.05 / +0.02 bonus for ranks 1 / 2-3 of an original-query list. */
  rankBonus: boolean;
  /**
   * Fused scores as a share of the best one (min_score then reads as a share of the best);
   * off, they stay raw RRF, comparable across queries (the graph's agentic retrieval
   * merges several queries by score).
   */
  relativeScores: boolean;
}

/**
 * Measured on LoCoMo (5 conversations, 760 questions, USE-lite), recall@10 of the full
 * pipeline 0.777; removing one stage at a time: neighbours 0.696, speaker focus 0.733,
 * rank bonus 0.743, dense list (weight 0) 0.745, time hints 0.757, feedback 0.772,
 * shortcut 0.775. Speaker factor 0.4: 0.778, 0.65: 0.773. Thread evidence (weight 0.1)
 * measured -0.2 and is off; capping hits per thread (3 at 0.7x) measured -2.9 and was
 * dropped. Dense weight 0.5: 0.723; 1.5: 0.728 (before the speaker focus).
 */
export const DEFAULT_TUNING: Tuning = {
  depth: 100,
  weights: { bm25: 1, vector: 1, trigram: 1, feedback: 1 },
  prf: { docs: 5, terms: 5 },
  neighbours: { seeds: 20, weight: 0.5, radius: 2 },
  time: { weight: 0.5 },
  thread: null,
  speakers: { factor: 0.5 },
  dropCommonTerms: true,
  strongShortcut: true,
  rankBonus: true,
  relativeScores: true,
};

/** Plain reciprocal rank fusion of the BM25 and dense lists: the baseline other tools use. */
export const PLAIN_RRF: Tuning = {
  depth: 100,
  weights: { bm25: 1, vector: 1, trigram: 0, feedback: 0 },
  prf: null,
  neighbours: null,
  time: null,
  thread: null,
  speakers: null,
  dropCommonTerms: true,
  strongShortcut: false,
  rankBonus: false,
  relativeScores: true,
};

/** Retrieval quality metrics for the benchmarks. Pure. */

/** Fraction of the gold ids found in the first k retrieved (LoCoMo's recall@k). */
export function recallAt(retrieved: readonly string[], gold: readonly string[], k: number): number {
  if (gold.length === 0) return 0;
  const top = new Set(retrieved.slice(0, k));
  return gold.filter((g) => top.has(g)).length / gold.length;
}

/** 1 when any gold id is in the first k. */
export function hitAt(retrieved: readonly string[], gold: readonly string[], k: number): number {
  const g = new Set(gold);
  return retrieved.slice(0, k).some((r) => g.has(r)) ? 1 : 0;
}

/** Reciprocal rank of the first gold id (0 when none is retrieved). */
export function reciprocalRank(retrieved: readonly string[], gold: readonly string[]): number {
  const g = new Set(gold);
  const i = retrieved.findIndex((r) => g.has(r));
  return i < 0 ? 0 : 1 / (i + 1);
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

interface QualityRow {
  r1: number;
  r5: number;
  r10: number;
  r20: number;
  hit10: number;
  mrr: number;
  n: number;
}

export function quality(runs: readonly { retrieved: readonly string[]; gold: readonly string[] }[]): QualityRow {
  return {
    r1: mean(runs.map((r) => recallAt(r.retrieved, r.gold, 1))),
    r5: mean(runs.map((r) => recallAt(r.retrieved, r.gold, 5))),
    r10: mean(runs.map((r) => recallAt(r.retrieved, r.gold, 10))),
    r20: mean(runs.map((r) => recallAt(r.retrieved, r.gold, 20))),
    hit10: mean(runs.map((r) => hitAt(r.retrieved, r.gold, 10))),
    mrr: mean(runs.map((r) => reciprocalRank(r.retrieved, r.gold))),
    n: runs.length,
  };
}

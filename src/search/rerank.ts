/**
 * The optional reranker hook (a cross-encoder or an LLM judging relevance). Its scores
 * are blended with the retrieval order the way qmd does, so a reranker refines the
 * order without throwing away an exact match at the top:
 *   positions 1-3: 75% retrieval / 25% reranker; 4-10: 60/40; below: 40/60.
 */

/** Returns one relevance score in [0, 1] per candidate, in order. */
export type RerankHook = (query: string, candidates: readonly { id: string; text: string }[]) => Promise<number[]>;

export const RERANK_CANDIDATES = 40;

/** Weight of the retrieval score at a 1-based position. */
export function retrievalWeight(position: number): number {
  if (position <= 3) return 0.75;
  if (position <= 10) return 0.6;
  return 0.4;
}

/** Blend for one candidate: retrieval score = 1 / position. */
export function blendRerank(position: number, rerankScore: number): number {
  const w = retrievalWeight(position);
  const r = Math.min(1, Math.max(0, Number.isFinite(rerankScore) ? rerankScore : 0));
  return w * (1 / position) + (1 - w) * r;
}

export async function applyRerank<T extends { id: string; text: string; score: number; explain: { rerank?: number } }>(
  query: string,
  hits: readonly T[],
  hook: RerankHook,
): Promise<T[]> {
  const head = hits.slice(0, RERANK_CANDIDATES);
  const scores = await hook(
    query,
    head.map((h) => ({ id: h.id, text: h.text })),
  );
  const blended = head.map((h, i) => ({
    ...h,
    score: blendRerank(i + 1, scores[i] ?? 0),
    explain: { ...h.explain, rerank: scores[i] ?? 0 },
  }));
  blended.sort((a, b) => b.score - a.score);
  return [...blended, ...hits.slice(RERANK_CANDIDATES)];
}

/**
 * What a hit brings along: in a conversation the answer often sits next to the turn that
 * shares the question's words, and the best evidence clusters in the sessions that match
 * most. Pure functions over fused scores; the SQL that finds neighbours is the caller's.
 */

export interface ThreadPosition {
  id: number;
  /** `collection\u0000project\u0000thread`, or undefined for documents outside any thread. */
  thread: string | undefined;
  seq: number | null;
}

/**
 * Neighbour spreading: each of the top `seeds` documents passes `weight` x its score to
 * the documents within `radius` positions of its thread (closer ones get more:
 * weight / distance). A neighbour keeps the larger of its own score and what it receives
 * added to its own.
 */
export function spreadToNeighbours(
  scores: ReadonlyMap<number, number>,
  order: readonly number[],
  positions: ReadonlyMap<number, ThreadPosition>,
  neighboursOf: (p: ThreadPosition, radius: number) => readonly ThreadPosition[],
  options: { seeds: number; weight: number; radius: number },
  /** How much of a gift a neighbour takes (1 by default): a filler turn ("lol", "yeah") less than one with content. */
  substance: (id: number) => number = () => 1,
): Map<number, number> {
  const gained = new Map<number, number>();
  for (const id of order.slice(0, options.seeds)) {
    const p = positions.get(id);
    const base = scores.get(id) ?? 0;
    if (!p?.thread || p.seq === null || base <= 0) continue;
    for (const n of neighboursOf(p, options.radius)) {
      if (n.id === id || n.seq === null) continue;
      const distance = Math.abs(n.seq - p.seq);
      if (distance === 0 || distance > options.radius) continue;
      const gift = ((options.weight * base) / distance) * substance(n.id);
      gained.set(n.id, Math.max(gained.get(n.id) ?? 0, gift));
    }
  }
  const out = new Map(scores);
  for (const [id, gift] of gained) out.set(id, (out.get(id) ?? 0) + gift);
  return out;
}

/**
 * Thread evidence: a thread's strength is the sum of its documents' scores among the
 * top `depth`; each document gains `weight` x (its thread's strength / the strongest
 * thread's), so hits in the sessions that match best move up.
 */
export function threadBoost(
  scores: ReadonlyMap<number, number>,
  order: readonly number[],
  positions: ReadonlyMap<number, ThreadPosition>,
  options: { depth: number; weight: number },
): Map<number, number> {
  const strength = new Map<string, number>();
  for (const id of order.slice(0, options.depth)) {
    const thread = positions.get(id)?.thread;
    if (!thread) continue;
    strength.set(thread, (strength.get(thread) ?? 0) + (scores.get(id) ?? 0));
  }
  const strongest = Math.max(0, ...strength.values());
  const out = new Map(scores);
  if (strongest <= 0) return out;
  for (const [id, score] of scores) {
    const thread = positions.get(id)?.thread;
    const s = thread ? (strength.get(thread) ?? 0) : 0;
    if (s > 0) out.set(id, score + (options.weight * s) / strongest);
  }
  return out;
}

/** Ids sorted by score, best first (ties: smaller id first). */
export function rankByScore(scores: ReadonlyMap<number, number>): number[] {
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}

/**
 * Memory retrieval (seed 004), the pure part: the N most recent memories plus the K found by
 * meaning (the search pipeline's hits, app/mind-recall.ts), each hit's score weighted by the
 * memory's weight decayed over time (a half-life in days), returned oldest first.
 */
import type { Memory } from './schemas.js';

export interface RecallOptions {
  recent: number;
  topK: number;
  halfLifeDays: number;
  now: Date;
}

export const DEFAULT_RECALL = { recent: 10, topK: 10, halfLifeDays: 30 } as const;

const DAY_MS = 86_400_000;

export const decay = (m: Memory, now: Date, halfLifeDays: number): number =>
  0.5 ** (Math.max(0, now.getTime() - Date.parse(m.timestamp)) / DAY_MS / halfLifeDays);

/**
 * How much a found memory's match counts: its weight, decayed over time, moves it by up to half
 * (0.5 to 1). The decay orders memories that match alike; it never hides a memory that matches
 * far better than the recent ones, however old.
 */
export const standing = (m: Memory, o: Pick<RecallOptions, 'now' | 'halfLifeDays'>): number =>
  0.5 + 0.5 * m.weight * decay(m, o.now, o.halfLifeDays);

/** A memory the search found for the situation, with its search score. */
export interface Found {
  memory: Memory;
  score: number;
}

/** The recent memories of `memories` (in log order) plus the best `found` ones older than them. */
export function recallFrom(memories: readonly Memory[], found: readonly Found[], o: RecallOptions): Memory[] {
  const recent = memories.slice(-o.recent);
  const shown = new Set<Memory>(recent);
  const order = new Map(memories.map((m, i) => [m, i]));
  const related = found
    .filter((f) => !shown.has(f.memory) && order.has(f.memory))
    .map((f) => ({ m: f.memory, s: f.score * standing(f.memory, o) }))
    .sort((a, b) => b.s - a.s)
    .slice(0, Math.max(0, o.topK))
    .map((x) => x.m)
    .sort((a, b) => (order.get(a) as number) - (order.get(b) as number));
  return [...related, ...recent];
}

/**
 * How much to inject (the context budget): four levels by how full the agent's
 * context already is, per-category character budgets for the graph, and an overall cap of
 * min(6000 characters, 15% of the remaining context).
 *
 *   used < 60%        full       graph yes   thread 5000   sections 400
 *   60% <= used < 80% reduced    graph yes   thread 2500   sections 280   (graph budgets x 0.7)
 *   80% <= used <= 90% minimal   graph no    thread  500   sections 150
 *   used > 90%        emergency  graph no    thread    0   sections  80
 */
import type { Category } from './queries.js';

export type ContextLevel = 'full' | 'reduced' | 'minimal' | 'emergency';

interface LevelBudget {
  level: ContextLevel;
  graph: boolean;
  thread: number;
  sections: number;
  /** Multiplier on the graph's budgets. */
  scale: number;
}

export const CATEGORY_BUDGETS: Readonly<Record<Category, number>> = {
  stack: 1500,
  context: 1500,
  decisions: 1000,
  errors: 1000,
  patterns: 500,
};
export const MAX_GRAPH_CHARS = 6000;
const REMAINING_SHARE = 0.15;
const CHARS_PER_TOKEN = 4;
const DEFAULT_CONTEXT_WINDOW_TOKENS = 200_000;
/** Claude Code truncates additionalContext beyond this. */
export const MAX_INJECTION_CHARS = 10_000;

export function levelFor(usedPct: number): LevelBudget {
  const used = Number.isFinite(usedPct) ? usedPct : 0;
  if (used < 60) return { level: 'full', graph: true, thread: 5000, sections: 400, scale: 1 };
  if (used < 80) return { level: 'reduced', graph: true, thread: 2500, sections: 280, scale: 0.7 };
  if (used <= 90) return { level: 'minimal', graph: false, thread: 500, sections: 150, scale: 0 };
  return { level: 'emergency', graph: false, thread: 0, sections: 80, scale: 0 };
}

/** min(6000, 15% of the remaining context in characters), scaled by the level. */
export function graphBudget(usedPct: number, contextWindowTokens = DEFAULT_CONTEXT_WINDOW_TOKENS): number {
  const used = Math.min(100, Math.max(0, Number.isFinite(usedPct) ? usedPct : 0));
  const remainingChars = ((100 - used) / 100) * contextWindowTokens * CHARS_PER_TOKEN;
  const level = levelFor(used);
  return Math.floor(Math.min(MAX_GRAPH_CHARS, REMAINING_SHARE * remainingChars) * level.scale);
}

export function categoryBudgets(scale: number): Record<Category, number> {
  return Object.fromEntries(Object.entries(CATEGORY_BUDGETS).map(([c, b]) => [c, Math.floor(b * scale)])) as Record<Category, number>;
}

/**
 * The memory tiers, where they apply to observations: processed observations older
 * than 30 days leave the working table for the archive (their ids stay reserved, so a later
 * import of the same transcript is still a no-op), their tool usage is added to monthly
 * aggregates, the preference-signal log keeps a rolling 500, and pattern tallies that never
 * recurred are forgotten after 90 days.
 */
import { DAY_MS } from '../core/clock.js';
import type { Store } from '../store/store.js';
import { INSTINCT_MIN_SESSIONS } from './apply.js';

const ARCHIVE_AFTER_DAYS = 30;
const MAX_PREFERENCE_SIGNALS = 500;
const FORGET_TALLIES_AFTER_DAYS = 90;

interface LifecycleResult {
  archived: number;
  months_aggregated: number;
  signals_trimmed: number;
  tallies_forgotten: number;
}

export function maintainObservations(store: Store, options: { archiveAfterDays?: number } = {}): LifecycleResult {
  const now = store.clock.now().getTime();
  const cutoff = new Date(now - (options.archiveAfterDays ?? ARCHIVE_AFTER_DAYS) * DAY_MS).toISOString();
  const forgetBefore = new Date(now - FORGET_TALLIES_AFTER_DAYS * DAY_MS).toISOString();
  const at = new Date(now).toISOString();
  return store.transaction(() => {
    const { archived, months } = store.observations.archiveProcessed(cutoff, at);
    return {
      archived,
      months_aggregated: months,
      signals_trimmed: store.learning.trimSignals(MAX_PREFERENCE_SIGNALS),
      tallies_forgotten: store.learning.pruneSightings(forgetBefore, INSTINCT_MIN_SESSIONS),
    };
  });
}

interface MonthlyToolUsage {
  month: string;
  tools: Record<string, number>;
  total: number;
  topTool: string;
}

/** The tool-monthly view: archived aggregates plus the observations still live. */
export function toolUsageMonthly(store: Store, options: { project?: string } = {}): MonthlyToolUsage[] {
  const rows = store.observations.toolUsage(options.project);
  const byMonth = new Map<string, MonthlyToolUsage>();
  for (const r of rows) {
    const m = byMonth.get(r.month) ?? { month: r.month, tools: {}, total: 0, topTool: r.tool };
    m.tools[r.tool] = r.n;
    m.total += r.n;
    if (r.n > (m.tools[m.topTool] ?? 0)) m.topTool = r.tool;
    byMonth.set(r.month, m);
  }
  return [...byMonth.values()];
}

/**
 * Seed 003's memory tiers, where they apply to observations: processed observations older
 * than 30 days leave the working table for the archive (their ids stay reserved, so a later
 * import of the same transcript is still a no-op), their tool usage is added to monthly
 * aggregates, the preference-signal log keeps a rolling 500, and pattern tallies that never
 * recurred are forgotten after 90 days.
 */
import { DAY_MS } from '../core/clock.js';
import { writeTx } from '../store/db.js';
import { OBSERVATION_COLUMNS } from '../store/learning-schema.js';
import { pruneSightings, trimPreferenceSignals } from '../store/learning.js';
import type { Store } from '../store/store.js';
import { INSTINCT_MIN_SESSIONS } from './apply.js';

export const ARCHIVE_AFTER_DAYS = 30;
export const MAX_PREFERENCE_SIGNALS = 500;
export const FORGET_TALLIES_AFTER_DAYS = 90;

export interface LifecycleResult {
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
  const cols = OBSERVATION_COLUMNS.join(', ');
  const where = 'processed_at IS NOT NULL AND ts < @cutoff';
  return writeTx(store.db, () => {
    const months = store.db
      .prepare(
        `INSERT INTO tool_usage_monthly (month, project, tool, count)
         SELECT substr(ts, 1, 7), project, tool, COUNT(*) FROM observations WHERE ${where} AND event = 'tool' AND tool != ''
         GROUP BY substr(ts, 1, 7), project, tool
         ON CONFLICT (month, project, tool) DO UPDATE SET count = count + excluded.count`,
      )
      .run({ cutoff }).changes;
    store.db
      .prepare(`INSERT OR IGNORE INTO observations_archive (${cols}, archived_at) SELECT ${cols}, @at FROM observations WHERE ${where}`)
      .run({ cutoff, at });
    const archived = store.db.prepare(`DELETE FROM observations WHERE ${where}`).run({ cutoff }).changes;
    return {
      archived,
      months_aggregated: months,
      signals_trimmed: trimPreferenceSignals(store.db, MAX_PREFERENCE_SIGNALS),
      tallies_forgotten: pruneSightings(store.db, forgetBefore, INSTINCT_MIN_SESSIONS),
    };
  });
}

export interface MonthlyToolUsage {
  month: string;
  tools: Record<string, number>;
  total: number;
  topTool: string;
}

/** Seed 003's tool-monthly view: archived aggregates plus the observations still live. */
export function toolUsageMonthly(store: Store, options: { project?: string } = {}): MonthlyToolUsage[] {
  const filter = options.project !== undefined ? 'AND project = @project' : '';
  const rows = store.db
    .prepare(
      `SELECT month, tool, SUM(n) AS n FROM (
         SELECT month, tool, count AS n, project FROM tool_usage_monthly WHERE 1 = 1 ${filter}
         UNION ALL
         SELECT substr(ts, 1, 7) AS month, tool, COUNT(*) AS n, project FROM observations
         WHERE event = 'tool' AND tool != '' ${filter} GROUP BY substr(ts, 1, 7), tool, project)
       GROUP BY month, tool ORDER BY month, n DESC, tool`,
    )
    .all(options.project !== undefined ? { project: options.project } : {}) as { month: string; tool: string; n: number }[];
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

/**
 * Insight over the instinct log: trending (observations per window), history
 * (one pattern's timeline), effectiveness (suggestions later confirmed by an observation)
 * and the suggestion log the future suggest tool writes. Results use the contract's exact keys.
 */
import { DAY_MS } from '../core/clock.js';
import { NotFoundError, UsageError } from '../core/errors.js';
import { round } from '../core/text.js';
import { OBSERVATION_KINDS } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import { requireInstinct } from './instincts.js';
import { type InstinctView, storeViews } from './records.js';

function checkDays(days: number): number {
  if (!Number.isFinite(days) || days <= 0 || days > 36_500)
    throw new UsageError(`days must be a positive number of days, got ${days}.`, 'Use e.g. 7 or 30.');
  return days;
}

const since = (store: Store, days: number): string => new Date(store.clock.now().getTime() - days * DAY_MS).toISOString();

interface TrendingResult {
  trending: (InstinctView & { observations_in_period?: number })[];
  period_days: number;
}

export function trending(store: Store, options: { days?: number; limit?: number } = {}): TrendingResult {
  const days = checkDays(options.days ?? 7);
  const limit = Math.max(0, Math.floor(options.limit ?? 10));
  const rows = store.instincts.busiestSince(since(store, days), limit);
  if (rows.length > 0) {
    const views = storeViews(store, rows);
    return { trending: views.map((v, i) => ({ ...v, observations_in_period: rows[i]?.observations_in_period ?? 0 })), period_days: days };
  }
  // No log entries in the window (pre-history data): order by evidence, then last_seen.
  const fallback = store.instincts
    .list()
    .sort((a, b) => b.evidence - a.evidence || b.last_seen.localeCompare(a.last_seen))
    .slice(0, limit);
  return { trending: storeViews(store, fallback), period_days: days };
}

interface HistoryResult {
  pattern: string;
  history: { timestamp: string; source: string; project: string; delta: number }[];
  data_points: number;
  projects: string[];
}

/** A pattern's events since `from`: its own, or, once it was forgotten, the log it left (ending with the forget). */
function logOf(store: Store, pattern: string, from: string, kinds?: typeof OBSERVATION_KINDS) {
  try {
    const row = requireInstinct(store, pattern);
    return { key: row.key, events: store.instincts.events(row.id, { since: from, kinds }) };
  } catch (err) {
    const left = err instanceof NotFoundError ? store.instincts.forgottenEvents(pattern.trim()) : [];
    if (left.length === 0) throw err;
    return { key: pattern.trim(), events: left.filter((e) => e.ts >= from && (!kinds || kinds.includes(e.kind))) };
  }
}

export function history(store: Store, pattern: string, options: { days?: number } = {}): HistoryResult {
  const days = checkDays(options.days ?? 30);
  const { key, events } = logOf(store, pattern, since(store, days), OBSERVATION_KINDS);
  return {
    pattern: key,
    history: events.map((e) => ({ timestamp: e.ts, source: e.source, project: e.project, delta: e.delta_evidence })),
    data_points: events.length,
    projects: [...new Set(events.map((e) => e.project).filter(Boolean))].sort(),
  };
}

interface TimelinePoint {
  timestamp: string;
  kind: string;
  delta_evidence: number;
  delta_confidence: number;
  source: string;
  detail: string;
  /** The key it was recorded under, when another instinct was merged into this one ('' otherwise). */
  from: string;
}

/** Both faces of one pattern over time (count and score), for the CLI's history view. */
export function timeline(store: Store, pattern: string, options: { days?: number } = {}): TimelinePoint[] {
  const days = checkDays(options.days ?? 30);
  const { key, events } = logOf(store, pattern, since(store, days));
  return events.map((e) => ({
    timestamp: e.ts,
    kind: e.kind,
    delta_evidence: e.delta_evidence,
    delta_confidence: e.delta_confidence,
    source: e.source,
    detail: e.detail,
    from: e.pattern && e.pattern !== key ? e.pattern : '',
  }));
}

/** Logs what a suggest() call returned, so later observations can confirm it. */
export function recordSuggestions(store: Store, patterns: readonly string[], options: { project?: string; source?: string } = {}): number {
  const at = store.clock.now().toISOString();
  return store.transaction(() => {
    let n = 0;
    for (const p of patterns) {
      const key = typeof p === 'string' ? p.trim() : '';
      if (!key) continue;
      store.learning.addSuggestion({
        pattern: store.instincts.resolveAlias(key),
        project: options.project ?? '',
        source: options.source ?? '',
        suggested_at: at,
      });
      n++;
    }
    return n;
  });
}

interface EffectivenessResult {
  patterns: { pattern: string; suggested: number; confirmed: number; rate: number }[];
  summary: { total_suggested: number; total_confirmed: number; overall_rate: number; period_days: number };
}

export function effectiveness(store: Store, options: { days?: number } = {}): EffectivenessResult {
  const days = checkDays(options.days ?? 30);
  const rows = store.learning.suggestionStats(since(store, days));
  const totalSuggested = rows.reduce((s, r) => s + r.suggested, 0);
  const totalConfirmed = rows.reduce((s, r) => s + r.confirmed, 0);
  return {
    patterns: rows.map((r) => ({
      pattern: r.pattern,
      suggested: r.suggested,
      confirmed: r.confirmed,
      rate: round(r.confirmed / r.suggested, 3),
    })),
    summary: {
      total_suggested: totalSuggested,
      total_confirmed: totalConfirmed,
      overall_rate: totalSuggested ? round(totalConfirmed / totalSuggested, 3) : 0,
      period_days: days,
    },
  };
}

/** Store summaries: the MCP contract's stats() and the instinct-status view. */
import { CATEGORIES, type Category, DOMAINS } from '../core/domain.js';
import { round } from '../core/text.js';
import type { Store } from '../store/store.js';
import { confidenceBand } from './confidence.js';
import { type InstinctView, storeViews } from './records.js';
import { listConvictions } from './evolve.js';

export interface InstinctStats {
  total: number;
  raw: number;
  mature: number;
  rules: number;
  universal: number;
  avg_evidence: number;
  max_evidence: number;
  by_category: Partial<Record<Category, { count: number; avg_evidence: number }>>;
}

/** Every conviction, each saying whether the user marked the instinct behind it wrong. */
function convictionsWithVerdict(store: Store): StatusView['convictions'] {
  const given = new Set(listConvictions(store, undefined, { given: true }).map((c) => c.instinct_id));
  return listConvictions(store).map((c) => ({
    pattern: c.pattern,
    title: c.title,
    rule: c.rule,
    confidence: c.confidence,
    stale: c.stale,
    wrong: !given.has(c.instinct_id),
  }));
}

/** The store's counts; `given` leaves out what the user marked wrong (never given to an agent). */
export function instinctStats(store: Store, options: { given?: boolean } = {}): InstinctStats {
  const rows = store.instincts.list(options.given ? { unrefuted: true } : {});
  const stats: InstinctStats = {
    total: rows.length,
    raw: 0,
    mature: 0,
    rules: 0,
    universal: 0,
    avg_evidence: 0,
    max_evidence: 0,
    by_category: {},
  };
  const sums = new Map<Category, { count: number; sum: number }>();
  let sum = 0;
  for (const row of rows) {
    if (row.level === 0) stats.raw++;
    else if (row.level === 1) stats.mature++;
    else if (row.level === 2) stats.rules++;
    else stats.universal++;
    sum += row.evidence;
    stats.max_evidence = Math.max(stats.max_evidence, row.evidence);
    const c = sums.get(row.category) ?? { count: 0, sum: 0 };
    c.count++;
    c.sum += row.evidence;
    sums.set(row.category, c);
  }
  stats.avg_evidence = rows.length ? round(sum / rows.length, 2) : 0;
  for (const category of CATEGORIES) {
    const c = sums.get(category);
    if (c) stats.by_category[category] = { count: c.count, avg_evidence: round(c.sum / c.count, 2) };
  }
  return stats;
}

interface StatusView {
  now: string;
  total: number;
  bands: Record<'strong' | 'moderate' | 'tentative' | 'faded', Record<string, InstinctView[]>>;
  /** `wrong`: the user marked the instinct behind it wrong, so it is not given to agents. */
  convictions: { pattern: string; title: string; rule: string; confidence: number; stale: boolean; wrong: boolean }[];
  pending_observations: number;
  observations: number;
  archived_observations: number;
}

/** What the store holds, as counts only: the dashboard's header reads it on every change. */
export interface StatusCounts {
  now: string;
  total: number;
  bands: Record<'strong' | 'moderate' | 'tentative' | 'faded', number>;
  convictions: number;
  pending_observations: number;
  observations: number;
}

export function instinctCounts(store: Store): StatusCounts {
  const bands: StatusCounts['bands'] = { strong: 0, moderate: 0, tentative: 0, faded: 0 };
  const rows = storeViews(store, store.instincts.list());
  for (const view of rows) bands[confidenceBand(view.confidence)] += 1;
  return {
    now: store.clock.now().toISOString(),
    total: rows.length,
    bands,
    convictions: store.instincts.convictions().length,
    pending_observations: store.observations.count({ pendingOnly: true }),
    observations: store.observations.count(),
  };
}

export function instinctStatus(store: Store): StatusView {
  const now = store.clock.now();
  const bands: StatusView['bands'] = { strong: {}, moderate: {}, tentative: {}, faded: {} };
  const rows = storeViews(store, store.instincts.list());
  rows.sort((a, b) => b.confidence - a.confidence || b.evidence - a.evidence || a.pattern.localeCompare(b.pattern));
  for (const view of rows) {
    const band = bands[confidenceBand(view.confidence)];
    const domain = (DOMAINS as readonly string[]).includes(view.domain) ? view.domain : 'general';
    (band[domain] ??= []).push(view);
  }
  return {
    now: now.toISOString(),
    total: rows.length,
    bands,
    convictions: convictionsWithVerdict(store),
    pending_observations: store.observations.count({ pendingOnly: true }),
    observations: store.observations.count(),
    /** Moved out of the live table by gc (kept for the monthly counts and so a re-import adds nothing). */
    archived_observations: store.observations.archived().count,
  };
}

/**
 * The memory's health, for the dashboard's Memory section and the CLI.
 *
 * Seed 003's three tiers, as Homunculus holds them:
 *   T1 working    what is happening now: sessions active in the last 24 h and observations
 *                 not yet learned from (pending)
 *   T2 learning   instincts being learned, by confidence band (strong, moderate, tentative, faded)
 *   T3 long-term  what is kept: convictions (promoted instincts), current graph facts, entities
 *
 * Quality: every metric of the seed's quality table (graph/stats.ts), with its healthy range.
 * Diff: instincts created, changed and forgotten (learn/memory-diff.ts) and facts the graph
 * took in or let go between two dates.
 */
import { z } from 'zod';
import { DAY_MS, parseInstant } from '../core/clock.js';
import { HEALTHY_RANGES, type GraphStats, graphStats } from '../graph/stats.js';
import { type InstinctDiff, type InstinctMove, dayRange, instinctDiff } from '../learn/memory-diff.js';
import { realTrigger } from '../context/plain.js';
import { factStatement } from '../context/graph-format.js';
import { parseJsonObject } from '../store/json.js';
import type { Store } from '../store/store.js';
import { instinctStatus } from '../learn/stats.js';
import { drainSpool } from '../capture/spool/drain.js';
import type { Fact } from '../store/graph/records.js';
import { UsageError } from '../core/errors.js';
import { defineOperation } from './operation.js';
import { text } from './schemas.js';

interface TierItem {
  label: string;
  count: number;
}

interface Tier {
  tier: 'T1' | 'T2' | 'T3';
  name: string;
  items: TierItem[];
}

interface QualityMetric {
  metric: keyof typeof HEALTHY_RANGES;
  label: string;
  value: string;
  healthy_range: string;
  /** null: the seed gives no line to judge it by. */
  healthy: boolean | null;
}

const LABELS: Record<keyof typeof HEALTHY_RANGES, string> = {
  dedup_ratio: 'Dedup ratio',
  embedding_coverage: 'Embedding coverage',
  average_activation: 'Average activation',
  reconsolidation_rate: 'Reconsolidation rate',
  retrieval_hit_rate: 'Retrieval hit rate',
  dream_efficiency: 'Dream cycle efficiency',
  memory_types: 'Memory type distribution',
  average_confidence: 'Average confidence of the facts',
};

/** The quality table's rows, in the seed's order. */
export function qualityRows(stats: GraphStats): QualityMetric[] {
  return (Object.keys(LABELS) as (keyof typeof HEALTHY_RANGES)[]).map((metric) => {
    const types = stats.memory_types;
    const value =
      metric === 'memory_types'
        ? `episodic ${types.episodic} / semantic ${types.semantic} / procedural ${types.procedural} / unclassified ${types.unclassified}`
        : String(stats[metric] ?? 'none yet');
    return {
      metric,
      label: LABELS[metric],
      value,
      healthy_range: HEALTHY_RANGES[metric],
      healthy: metric === 'memory_types' ? null : stats.healthy[metric],
    };
  });
}

export const memoryHealth = defineOperation({
  name: 'memory.health',
  summary: "The memory's tiers (working, learning, long-term) with their counts, and every quality metric with its healthy range",
  input: z.object({}),
  run({ store }) {
    drainSpool(store, store.paths.home);
    const status = instinctStatus(store);
    const stats = graphStats(store);
    const bands = (['strong', 'moderate', 'tentative', 'faded'] as const).map((band) => ({
      label: `${band} instincts`,
      count: Object.values(status.bands[band]).reduce((n, list) => n + list.length, 0),
    }));
    const since = new Date(store.clock.now().getTime() - DAY_MS).toISOString();
    const tiers: Tier[] = [
      {
        tier: 'T1',
        name: 'Working',
        items: [
          { label: 'sessions in the last 24 h', count: store.audit.sessionsActiveSince(since) },
          { label: 'observations pending', count: status.pending_observations },
        ],
      },
      { tier: 'T2', name: 'Learning', items: bands },
      {
        tier: 'T3',
        name: 'Long-term',
        items: [
          { label: 'convictions', count: status.convictions.length },
          { label: 'current facts', count: stats.facts.current },
          // Every one stored: the Neural page counts those with a fact true at its date.
          { label: 'entities stored', count: stats.entities },
        ],
      },
    ];
    return { now: status.now, tiers, quality: qualityRows(stats) };
  },
});

/** An ISO-8601 date or instant. */
const when = () =>
  text(64).refine((v) => parseInstant(v) !== undefined, { error: 'must be a date such as 2026-03-01 (or an ISO-8601 instant)' });

const MAX_FACTS = 200;

const factLine = (f: Fact) => ({
  id: f.id,
  statement: factStatement(f),
  description: f.description,
  created_at: f.created_at,
  expired_at: f.expired_at,
  expired_reason: f.expired_reason,
});

/** What a forgotten instinct said, as its forget event kept it. */
function forgottenWords(store: Store, pattern: string): { trigger: string; action: string } {
  const detail = parseJsonObject(store.instincts.forgottenEvents(pattern).findLast((e) => e.kind === 'forget')?.detail ?? null);
  const said = (v: unknown): string => (typeof v === 'string' ? v : '');
  return { trigger: realTrigger(pattern, said(detail.trigger)), action: said(detail.action) };
}

/** Each move with its instinct's trigger and action (a forgotten one's as it was): the key says nothing to a reader. */
function inPlainWords(store: Store, diff: InstinctDiff) {
  const plain = (moves: InstinctMove[]) =>
    moves.map((m) => {
      const row = store.instincts.get(m.pattern);
      return { ...m, ...(row ? { trigger: realTrigger(row.key, row.trigger), action: row.action } : forgottenWords(store, m.pattern)) };
    });
  return {
    created: plain(diff.created),
    changed: plain(diff.changed),
    forgotten: plain(diff.forgotten),
    taken_back: plain(diff.taken_back),
    faded: plain(diff.faded),
    merged: diff.merged,
  };
}

export const memoryDiff = defineOperation({
  name: 'memory.diff',
  summary: 'What changed between two dates: instincts created, changed and forgotten; facts added and expired',
  // Without `to`, up to now: "what changed since" is the common question.
  input: z.object({ from: when(), to: when().optional() }),
  run({ store }, input) {
    const to = input.to ?? store.clock.now().toISOString();
    const range = dayRange(parseInstant(input.from) as Date, parseInstant(to) as Date, to);
    if (range.from >= range.to) throw new UsageError(`from (${input.from}) must come before to (${to}).`);
    const facts = store.graph.facts.recordedBetween(range.from, range.to, MAX_FACTS);
    return {
      ...range,
      instincts: inPlainWords(store, instinctDiff(store.audit.instinctEventsSince(range.from), range.from, range.to)),
      facts: { added: facts.added.map(factLine), expired: facts.expired.map(factLine), limit: MAX_FACTS },
    };
  },
});

/** The maintenance and insight half of the MCP contract: consolidate, chains, duplicates, gc, trends, history. */
import { z } from 'zod';
import { MATURE_EVIDENCE, consolidate, stats, views } from '../../app/instincts.js';
import { chains, duplicates, effectiveness, gc, history, trending } from '../../app/learning.js';
import { projectKey } from '../../app/project-ref.js';
import { NotFoundError } from '../../core/errors.js';
import { DUPLICATE_THRESHOLD } from '../../learn/similarity.js';
import { contractRecord, contractStats } from '../records.js';
import { IDEMPOTENT_WRITE, READ_ONLY, ADDITIVE, call, defineTool, type ToolDef } from '../tool.js';
import { keyArg, limitArg, orError, record, statsShape, textArg } from '../schemas.js';

const DAY_MS = 86_400_000;
const consolidateShape = z.object({
  promoted_to_mature: z.number().int(),
  promoted_to_rule: z.number().int(),
  promoted_to_universal: z.number().int(),
  chains_detected: z.number().int(),
  chains_created: z.number().int(),
  total: z.number().int(),
  timestamp: z.string(),
});
/** An object of whole-number counts under these names. */
const counts = <K extends string>(...names: K[]) =>
  z.object(Object.fromEntries(names.map((n) => [n, z.number().int()])) as Record<K, z.ZodNumber>);
const gcShape = z.object({
  decay: z.object({ decayed: z.number().int(), deleted: z.number().int() }),
  dedup: z.object({ found: z.number().int(), applied: z.number().int() }),
  orphans_cleaned: z.number().int(),
  fts_rebuilt: z.boolean(),
  // What else the CLI's gc reports: the same operation, the same counts.
  observations: counts('archived', 'months_aggregated', 'signals_trimmed', 'tallies_forgotten'),
  sessions_archived: z.number().int(),
  conversations_forgotten: z.number().int(),
});
const threshold = z.number().min(0).max(1).default(DUPLICATE_THRESHOLD);
const days = (fallback: number) => z.number().positive().max(36_500).default(fallback);

const consolidateTool = defineTool({
  name: 'consolidate',
  title: 'Consolidate levels',
  description:
    'Re-evaluate pattern levels: raw -> mature (>= 5, +1 recency bonus for patterns seen in the last 7 days), mature -> rule (>= 10), rule -> universal (2+ distinct projects). Also runs detect_chains() and rebuilds the FTS5 index. Already-promoted patterns are untouched. Call after bulk imports or at the end of a session.',
  input: z.object({}),
  output: consolidateShape,
  annotations: IDEMPOTENT_WRITE,
  handler: (ctx) => call(consolidate, ctx, {}),
});

const sessionSummaryTool = defineTool({
  name: 'session_summary',
  title: 'End-of-session summary',
  description:
    'One-call end-of-session overview: patterns observed in the last 24 h (count and up to 10 recent), the top 5 mature suggestions, full stats, and the result of the consolidate() it runs (side effect: levels, chains, FTS rebuild). project "" auto-detects from the working directory.',
  input: z.object({ project: textArg.default('') }),
  output: z.object({
    session: z.object({ patterns_last_24h: z.number().int(), recent: z.array(record) }),
    suggestions: z.object({ count: z.number().int(), top: z.array(record) }),
    stats: statsShape,
    consolidation: consolidateShape,
  }),
  annotations: IDEMPOTENT_WRITE,
  handler(ctx, args) {
    const consolidation = call(consolidate, ctx, {});
    const project = projectKey(ctx.store, args.project) || ctx.project;
    const since = new Date(ctx.store.clock.now().getTime() - DAY_MS).toISOString();
    const recent = views(
      ctx.store,
      ctx.store.instincts.list({ seenSince: since, project, includeGlobal: true, order: 'recent', limit: 10 }),
    );
    const count = ctx.store.instincts.count({ seenSince: since, project, includeGlobal: true });
    const mature = views(
      ctx.store,
      ctx.store.instincts.list({ minEvidence: MATURE_EVIDENCE, unrefuted: true, project, includeGlobal: true }),
    );
    return {
      session: { patterns_last_24h: count, recent: recent.map(contractRecord) },
      suggestions: { count: mature.length, top: mature.slice(0, 5).map(contractRecord) },
      stats: contractStats(call(stats, ctx, {})),
      consolidation,
    };
  },
});

const detectChainsTool = defineTool({
  name: 'detect_chains',
  title: 'Detect tool chains',
  description:
    'Mine the confidence log for pairs of patterns observed close in time and create a "seq:A->B" pattern for each pair seen at least min_occurrences times within window_minutes. Safe to run periodically: existing chains are only reinforced.',
  input: z.object({
    window_minutes: z.number().positive().max(10_080).default(5),
    min_occurrences: z.number().int().min(1).max(1_000_000).default(3),
  }),
  output: z.object({ chains_created: z.number().int(), chains_reinforced: z.number().int(), candidates_seen: z.number().int() }),
  annotations: ADDITIVE,
  handler(ctx, args) {
    return call(chains, ctx, { windowMinutes: args.window_minutes, minOccurrences: args.min_occurrences });
  },
});

const effectivenessTool = defineTool({
  name: 'effectiveness',
  title: 'Suggestion effectiveness',
  description:
    'How often suggested patterns were confirmed by a later observe(): each suggest() logs what it returned and each observe() confirms the most recent unconfirmed suggestion of its pattern. Per-pattern rows (ordered by confirmed, then suggested) and an overall rate over the last `days` days. Read-only.',
  input: z.object({ days: days(30) }),
  output: z.object({
    patterns: z.array(z.object({ pattern: z.string(), suggested: z.number().int(), confirmed: z.number().int(), rate: z.number() })),
    summary: z.object({
      total_suggested: z.number().int(),
      total_confirmed: z.number().int(),
      overall_rate: z.number(),
      period_days: z.number(),
    }),
  }),
  annotations: READ_ONLY,
  handler: (ctx, args) => call(effectiveness, ctx, { days: args.days }),
});

const trendingTool = defineTool({
  name: 'trending',
  title: 'Trending patterns',
  description:
    'Rank patterns by observation velocity: reinforcements counted in the confidence log within the last `days` days, busiest first, each record with observations_in_period. Falls back to confidence and last_seen ordering (without that field) when the window has no log entries. Read-only.',
  input: z.object({ days: days(7), limit: limitArg(10_000, 10) }),
  output: z.object({ trending: z.array(record.extend({ observations_in_period: z.number().int().optional() })), period_days: z.number() }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    const r = call(trending, ctx, { days: args.days, limit: args.limit });
    return {
      trending: r.trending.map((t) => ({
        ...contractRecord(t),
        ...(t.observations_in_period !== undefined ? { observations_in_period: t.observations_in_period } : {}),
      })),
      period_days: r.period_days,
    };
  },
});

const findDuplicatesTool = defineTool({
  name: 'find_duplicates',
  title: 'Find near-duplicate keys',
  description:
    'Compare every pattern key with every other by token overlap and prefix matching and list pairs at or above the similarity threshold (default 0.75; 0.5 over-suggests, 0.9 under-suggests). Read-only: apply merges with alias_pattern().',
  input: z.object({ threshold }),
  output: z.object({
    duplicates: z.array(z.object({ pattern_a: z.string(), pattern_b: z.string(), similarity: z.number() })),
    count: z.number().int(),
    hint: z.string(),
  }),
  annotations: READ_ONLY,
  handler: (ctx, args) => call(duplicates, ctx, { threshold: args.threshold }),
});

const historyTool = defineTool({
  name: 'history',
  title: 'Pattern history',
  description:
    'Every observation recorded against one pattern within the last `days` days, with timestamps, source projects and deltas, plus the distinct projects. Exact, case-sensitive key. On a miss returns {"error": "Not found: <pattern>"}.',
  input: z.object({ pattern: keyArg, days: days(30) }),
  output: orError({
    pattern: z.string(),
    history: z.array(z.object({ timestamp: z.string(), source: z.string(), project: z.string(), delta: z.number() })),
    data_points: z.number().int(),
    projects: z.array(z.string()),
  }),
  annotations: READ_ONLY,
  handler(ctx, args) {
    try {
      const { timeline: _timeline, ...seed } = call(history, ctx, { pattern: args.pattern, days: args.days });
      return seed;
    } catch (err) {
      if (err instanceof NotFoundError) return { error: `Not found: ${args.pattern}` };
      throw err;
    }
  },
});

function gcTool(name: 'gc' | 'housekeep', description: string): ToolDef {
  return defineTool({
    name,
    title: name === 'gc' ? 'Garbage-collect the store' : 'Housekeep the store',
    description,
    input: z.object({ dedup_threshold: threshold }),
    output: gcShape,
    annotations: { ...IDEMPOTENT_WRITE, destructiveHint: true },
    handler: (ctx, args) => call(gc, ctx, { threshold: args.dedup_threshold }),
  }) as unknown as ToolDef;
}

const GC_STEPS =
  'Runs every maintenance step: (1) decay confidence of idle patterns, (2) merge near-duplicates at dedup_threshold (default 0.75), (3) remove aliases whose target no longer exists, (4) rebuild the FTS5 index; it also archives processed observations older than 30 days. Safe and idempotent; running it more than once a day is fine.';

export const MAINTENANCE_TOOLS = [
  consolidateTool,
  sessionSummaryTool,
  detectChainsTool,
  effectivenessTool,
  trendingTool,
  findDuplicatesTool,
  historyTool,
  gcTool('gc', `${GC_STEPS} housekeep() is the same tool under a more discoverable name.`),
  gcTool('housekeep', `Clean up: ${GC_STEPS} Identical to gc().`),
];

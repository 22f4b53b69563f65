/**
 * Store maintenance, as library functions the CLI and the MCP server share:
 * consolidate (levels, chains, FTS rebuild), detect_chains, find_duplicates and gc/housekeep
 * (decay, duplicate merges, orphan aliases, FTS rebuild; idempotent). Results use the
 * contract's exact keys.
 */
import { errorMessage } from '../core/errors.js';
import { type InstinctRow } from '../store/instincts.js';
import { chainProblem } from './gate.js';
import { parseJsonObject } from '../store/json.js';
import type { Store } from '../store/store.js';
import { CONFIDENCE_FLOOR } from './confidence.js';
import { type DecayResult, aliasPattern, applyDecay, consolidateLevels, observe } from './instincts.js';
import { currentConfidence } from './records.js';
import { DUPLICATE_THRESHOLD, type DuplicatePair, duplicatePairs } from './similarity.js';

const CHAIN_WINDOW_MINUTES = 5;
const CHAIN_MIN_OCCURRENCES = 3;

interface ChainsResult {
  chains_created: number;
  chains_reinforced: number;
  candidates_seen: number;
}

const isChain = (row: InstinctRow): boolean => parseJsonObject(row.metadata).chain === true;

/** Pairs (A, B) where B was observed within the window after A, counted once per A observation. */
export function countChainPairs(
  events: readonly { key: string; at: number }[],
  windowMs: number,
): Map<string, { a: string; b: string; count: number }> {
  const pairs = new Map<string, { a: string; b: string; count: number }>();
  for (let i = 0; i < events.length; i++) {
    const first = events[i] as { key: string; at: number };
    const seen = new Set<string>();
    for (let j = i + 1; j < events.length; j++) {
      const next = events[j] as { key: string; at: number };
      if (next.at - first.at > windowMs) break;
      if (next.key === first.key || seen.has(next.key)) continue;
      seen.add(next.key);
      const id = `${first.key}\u0000${next.key}`;
      const pair = pairs.get(id) ?? { a: first.key, b: next.key, count: 0 };
      pair.count++;
      pairs.set(id, pair);
    }
  }
  return pairs;
}

/** detect_chains: mines the observation log for instincts observed one after the other. */
export function detectChains(
  store: Store,
  options: { windowMinutes?: number; minOccurrences?: number } = {},
): ChainsResult & { chains_detected: number } {
  const windowMs = (options.windowMinutes ?? CHAIN_WINDOW_MINUTES) * 60_000;
  const min = options.minOccurrences ?? CHAIN_MIN_OCCURRENCES;
  const now = store.clock.now();
  const rows = new Map(store.instincts.list().map((r) => [r.id, r]));
  const events = store.instincts
    .observationTimes()
    .map((e) => ({ row: rows.get(e.instinct_id), at: Date.parse(e.ts) }))
    .filter((e): e is { row: InstinctRow; at: number } => !!e.row && !isChain(e.row) && currentConfidence(e.row, now) > CONFIDENCE_FLOOR)
    .map((e) => ({ key: e.row.key, at: e.at }));
  const pairs = countChainPairs(events, windowMs);
  const result = { chains_created: 0, chains_reinforced: 0, candidates_seen: pairs.size, chains_detected: 0 };
  for (const { a, b, count } of pairs.values()) {
    if (count < min) continue;
    result.chains_detected++;
    // Chains pass the quality gate like every other pattern.
    if (chainProblem([a, b])) continue;
    const key = `seq:${a}->${b}`;
    const existing = store.instincts.get(key);
    const counted = Number(parseJsonObject(existing?.metadata).pair_count ?? 0);
    if (existing && count <= counted) continue;
    observe(store, {
      pattern: key,
      category: 'sequence',
      source: 'detect_chains',
      trigger: `after ${a}`,
      action: `Expect ${b} next: they were observed one after the other ${count} times.`,
      title: `${a} then ${b}`,
      explain: `Observed within ${windowMs / 60_000} minutes of each other ${count} times.`,
      metadata: { chain: true, steps: [a, b], pair_count: count },
      occurrences: existing ? count - counted : count,
    });
    if (existing) result.chains_reinforced++;
    else result.chains_created++;
  }
  return result;
}

interface ConsolidateResult {
  promoted_to_mature: number;
  promoted_to_rule: number;
  promoted_to_universal: number;
  chains_detected: number;
  chains_created: number;
  total: number;
  timestamp: string;
}

export function consolidate(store: Store): ConsolidateResult {
  const chains = detectChains(store);
  const levels = consolidateLevels(store);
  store.transaction(() => store.instincts.rebuildIndex());
  return {
    promoted_to_mature: levels.promoted_to_mature,
    promoted_to_rule: levels.promoted_to_rule,
    promoted_to_universal: levels.promoted_to_universal,
    chains_detected: chains.chains_detected,
    chains_created: chains.chains_created,
    total: levels.total,
    timestamp: store.clock.now().toISOString(),
  };
}

interface DuplicatesResult {
  duplicates: DuplicatePair[];
  count: number;
  hint: string;
}

export function findDuplicates(store: Store, threshold = DUPLICATE_THRESHOLD): DuplicatesResult {
  const duplicates = duplicatePairs(
    store.instincts.list().map((r) => r.key),
    threshold,
  );
  return {
    duplicates,
    count: duplicates.length,
    hint: duplicates.length
      ? 'Merge a pair with alias_pattern(pattern, target) (CLI: homunculus alias PATTERN TARGET), or let gc() merge them.'
      : 'No near-duplicates at this threshold; lower it (e.g. 0.5) to see looser matches.',
  };
}

interface GcResult {
  decay: DecayResult;
  dedup: { found: number; applied: number };
  orphans_cleaned: number;
  fts_rebuilt: boolean;
}

/** Merges each duplicate pair of the same category and project into the one with more evidence. */
function mergeDuplicates(store: Store, threshold: number): { found: number; applied: number; errors: string[] } {
  const pairs = findDuplicates(store, threshold).duplicates;
  const retired = new Set<string>();
  let applied = 0;
  const errors: string[] = [];
  for (const pair of pairs) {
    if (retired.has(pair.pattern_a) || retired.has(pair.pattern_b)) continue;
    const a = store.instincts.get(pair.pattern_a);
    const b = store.instincts.get(pair.pattern_b);
    if (!a || !b || a.category !== b.category || a.project !== b.project) continue;
    const keepA = a.evidence > b.evidence || (a.evidence === b.evidence && a.first_seen <= b.first_seen);
    const [target, loser] = keepA ? [a, b] : [b, a];
    try {
      aliasPattern(store, loser.key, target.key);
      store.transaction(() => store.learning.renameSightings(loser.key, target.key));
      retired.add(loser.key);
      applied++;
    } catch (err) {
      errors.push(`${loser.key}: ${errorMessage(err)}`);
    }
  }
  return { found: pairs.length, applied, errors };
}

/** Aliases whose target is neither an instinct nor another alias. */
function cleanOrphanAliases(store: Store): number {
  return store.transaction(() => store.instincts.deleteOrphanAliases());
}

/** gc() / housekeep(): safe to run at any time, a second run changes nothing. */
export function housekeep(store: Store, options: { dedupThreshold?: number } = {}): GcResult {
  const decay = applyDecay(store);
  const { found, applied } = mergeDuplicates(store, options.dedupThreshold ?? DUPLICATE_THRESHOLD);
  const orphans = cleanOrphanAliases(store);
  store.transaction(() => store.instincts.rebuildIndex());
  return { decay, dedup: { found, applied }, orphans_cleaned: orphans, fts_rebuilt: true };
}

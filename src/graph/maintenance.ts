/**
 * The graph's lifecycle GC, at most every 6 hours, under a pid lock that a
 * crashed holder releases after 60 seconds:
 *   1. expire facts whose ACT-R activation fell below -2.0 (forgotten: graph dimension only)
 *   2. trim the access log
 *   3. the dream cycle
 *   4. communities
 */
import { join } from 'node:path';
import { acquireLock } from '../core/lock.js';
import type { Store } from '../store/store.js';
import { MAX_ACCESSES_PER_FACT, activations } from './access.js';
import { isExpired } from './activation.js';
import { detectCommunities } from './communities.js';
import { type DreamReport, runDreamCycle } from './dream.js';

const GC_INTERVAL_MS = 6 * 60 * 60 * 1000;
const GC_LOCK_TIMEOUT_MS = 60_000;
const LAST_RUN_KEY = 'graph.gc.last_run';

export interface GcReport {
  ran: boolean;
  reason: string;
  expired: number[];
  access_rows_trimmed: number;
  dream?: DreamReport;
  communities?: number;
  next_due?: string;
}

/** Closes (expired_at, reason 'decayed') every current fact below the activation threshold. */
export function expireDecayedFacts(store: Store): number[] {
  const now = store.clock.now();
  const nowIso = now.toISOString();
  const facts = store.graph.facts.summaries({ time: { now: nowIso } });
  const expired: number[] = [];
  for (const [id, a] of activations(store, facts, now)) if (isExpired(a)) expired.push(id);
  store.transaction(() => {
    for (const id of expired) store.graph.facts.close(id, { expiredAt: nowIso, reason: 'decayed' });
  });
  return expired;
}

export function runLifecycle(store: Store, options: { force?: boolean } = {}): GcReport {
  const now = store.clock.now();
  const previous = store.meta.read(LAST_RUN_KEY);
  if (!options.force && previous && now.getTime() - Date.parse(previous) < GC_INTERVAL_MS) {
    const due = new Date(Date.parse(previous) + GC_INTERVAL_MS).toISOString();
    return {
      ran: false,
      reason: `last run ${previous}; next due ${due} (use --force to run now)`,
      expired: [],
      access_rows_trimmed: 0,
      next_due: due,
    };
  }
  const release = acquireLock(join(store.paths.locks, 'graph-gc.lock'), { staleMs: GC_LOCK_TIMEOUT_MS });
  if (!release) return { ran: false, reason: 'another graph GC is running', expired: [], access_rows_trimmed: 0 };
  try {
    const expired = expireDecayedFacts(store);
    const trimmed = store.transaction(() => store.graph.accesses.trim(MAX_ACCESSES_PER_FACT));
    const dream = runDreamCycle(store);
    const communities = detectCommunities(store).length;
    store.meta.write(LAST_RUN_KEY, now.toISOString());
    return {
      ran: true,
      reason: 'ran',
      expired,
      access_rows_trimmed: trimmed,
      dream,
      communities,
      next_due: new Date(now.getTime() + GC_INTERVAL_MS).toISOString(),
    };
  } finally {
    release();
  }
}

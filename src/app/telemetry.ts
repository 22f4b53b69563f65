/**
 * Hook telemetry and the security report, from the hook-call log (one line per call,
 * hooks/run.ts), the failure log (hooks.log) and the marks redaction left in stored text.
 * Bad lines are skipped and counted; no stored text and no secret is ever returned.
 */
import { z } from 'zod';
import { HOOK_BUDGET_MS, type HookCall, isHookFailure, parseHookCalls, parseHookLog } from '../core/hook-calls.js';
import { problemCalls, summariseCalls } from '../core/hook-stats.js';
import { readRotated } from '../core/fs.js';
import type { HomePaths } from '../core/paths.js';
import { redact } from '../core/redact.js';
import { truncate } from '../core/text.js';
import type { TextPlace } from '../store/audit.js';
import { defineOperation } from './operation.js';

const PROBLEMS = 20;
const LOG_ENTRIES = 10;

export function hookCalls(paths: HomePaths): { calls: HookCall[]; skipped: number } {
  return parseHookCalls(readRotated(paths.hookCalls));
}

/** The last failures hooks.log holds, newest first; messages redacted and cut short (they may quote a payload). */
function lastFailures(paths: HomePaths): { ts: string; message: string }[] {
  return parseHookLog(readRotated(paths.hookLog))
    .filter(isHookFailure)
    .slice(-LOG_ENTRIES)
    .reverse()
    .map((e) => ({ ts: e.ts, message: truncate(redact(e.message), 300) }));
}

export const hookTelemetry = defineOperation({
  name: 'telemetry.hooks',
  summary: 'Hook calls per event, p50/p95/p99 latency, failures and timeouts with the last failure messages',
  input: z.object({}),
  run({ store }) {
    const { calls, skipped } = hookCalls(store.paths);
    return {
      calls: calls.length,
      skipped_lines: skipped,
      since: calls[0]?.ts ?? null,
      budget_ms: HOOK_BUDGET_MS,
      events: summariseCalls(calls),
      problems: problemCalls(calls, PROBLEMS),
      log: lastFailures(store.paths),
    };
  },
});

interface KindCount {
  kind: string;
  total: number;
  places: Record<TextPlace, number>;
}

export const securityReport = defineOperation({
  name: 'security.report',
  summary: 'What redaction hid in stored text, by kind and count (never the text), and hook calls that failed or ran over budget',
  input: z.object({}),
  run({ store }) {
    const kinds = new Map<string, KindCount>();
    for (const r of store.audit.redactions()) {
      const k = kinds.get(r.kind) ?? { kind: r.kind, total: 0, places: { observations: 0, prompts: 0, documents: 0 } };
      k.total += r.count;
      k.places[r.place] += r.count;
      kinds.set(r.kind, k);
    }
    const list = [...kinds.values()].sort((a, b) => b.total - a.total || a.kind.localeCompare(b.kind));
    const { calls } = hookCalls(store.paths);
    const problems = problemCalls(calls, PROBLEMS);
    return {
      redactions: { total: list.reduce((n, k) => n + k.total, 0), kinds: list },
      hooks: {
        budget_ms: HOOK_BUDGET_MS,
        failed: calls.filter((c) => c.outcome === 'failed').length,
        timeouts: calls.filter((c) => c.outcome === 'timeout').length,
        slow: calls.filter((c) => c.ms > HOOK_BUDGET_MS).length,
        problems,
      },
    };
  },
});

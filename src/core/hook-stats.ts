/** Hook telemetry summarised (pure): calls, latency percentiles and outcomes per hook, and the calls that went wrong. */
import { type HookCall, HOOK_BUDGET_MS } from './hook-calls.js';
import { percentile } from './percentile.js';
import { round } from './text.js';

export interface EventSummary {
  event: string;
  calls: number;
  ok: number;
  failed: number;
  timeout: number;
  /** Calls over the hook's budget (HOOK_BUDGET_MS), whatever their outcome. */
  slow: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** A call that failed, timed out or ran over its budget. */
export type ProblemCall = HookCall & { slow: boolean };

/** Per hook, most called first. */
export function summariseCalls(calls: readonly HookCall[], budgetMs = HOOK_BUDGET_MS): EventSummary[] {
  const byEvent = new Map<string, HookCall[]>();
  for (const c of calls) byEvent.set(c.event, [...(byEvent.get(c.event) ?? []), c]);
  return [...byEvent]
    .map(([event, list]) => {
      const ms = list.map((c) => c.ms);
      const outcomes = (o: HookCall['outcome']) => list.filter((c) => c.outcome === o).length;
      return {
        event,
        calls: list.length,
        ok: outcomes('ok'),
        failed: outcomes('failed'),
        timeout: outcomes('timeout'),
        slow: list.filter((c) => c.ms > budgetMs).length,
        p50_ms: round(percentile(ms, 50), 1),
        p95_ms: round(percentile(ms, 95), 1),
        p99_ms: round(percentile(ms, 99), 1),
        max_ms: round(percentile(ms, 100), 1),
      };
    })
    .sort((a, b) => b.calls - a.calls || a.event.localeCompare(b.event));
}

/** The last `limit` calls that failed, timed out or were slow, newest first. */
export function problemCalls(calls: readonly HookCall[], limit: number, budgetMs = HOOK_BUDGET_MS): ProblemCall[] {
  const out: ProblemCall[] = [];
  for (let i = calls.length - 1; i >= 0 && out.length < limit; i--) {
    const c = calls[i] as HookCall;
    const slow = c.ms > budgetMs;
    if (slow || c.outcome !== 'ok') out.push({ ...c, slow });
  }
  return out;
}

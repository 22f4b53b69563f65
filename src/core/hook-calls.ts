/**
 * Hook telemetry: one JSON line per hook call in $HOMUNCULUS_HOME/logs/hook-calls.jsonl
 * (HomePaths.hookCalls), written by the hook at its end; and the reading of it and of the
 * failure log (hooks.log). Kept free of heavy imports: the observe hook loads this module
 * after every tool call.
 */
import { appendRotated } from './fs.js';

/**
 * A hook's time budget: the hook process answers by then whatever is stuck (hooks/main.ts),
 * and agents are told to wait 15 s for it (capture/install/targets.ts). A call over it is slow.
 */
export const HOOK_BUDGET_MS = 15_000;

export const CALL_OUTCOMES = ['ok', 'failed', 'timeout'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export interface HookCall {
  ts: string;
  /** The hook (start, prompt, observe, recall, stop), or the word the agent ran it with when it is none. */
  event: string;
  agent: string;
  ms: number;
  outcome: CallOutcome;
}

/** The log keeps at most about 1 MiB of calls (some 10,000), and one older file. */
const MAX_CALLS_BYTES = 1024 * 1024;
const MAX_WORD = 64;

/** One call as its log line (without the newline). */
export function hookCallLine(call: Omit<HookCall, 'ts'>, now = new Date()): string {
  const line: HookCall = {
    ts: now.toISOString(),
    event: call.event.slice(0, MAX_WORD),
    agent: call.agent.slice(0, MAX_WORD),
    ms: Math.round(call.ms * 10) / 10,
    outcome: call.outcome,
  };
  return JSON.stringify(line);
}

/** Appends one call; never throws (an unwritable home must not cost the agent its answer). */
export function recordHookCall(path: string, call: Omit<HookCall, 'ts'>, now = new Date()): void {
  try {
    appendRotated(path, `${hookCallLine(call, now)}\n`, MAX_CALLS_BYTES);
  } catch {
    // Telemetry is dropped rather than the hook failing.
  }
}

const isWord = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_WORD;

/** One line as a call, or undefined when any field is missing or malformed. */
export function parseHookCall(line: string): HookCall | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const ok =
    typeof o.ts === 'string' &&
    !Number.isNaN(Date.parse(o.ts)) &&
    isWord(o.event) &&
    isWord(o.agent) &&
    typeof o.ms === 'number' &&
    Number.isFinite(o.ms) &&
    o.ms >= 0 &&
    (CALL_OUTCOMES as readonly unknown[]).includes(o.outcome);
  return ok
    ? { ts: o.ts as string, event: o.event as string, agent: o.agent as string, ms: o.ms as number, outcome: o.outcome as CallOutcome }
    : undefined;
}

/** Every valid call of a log's text, in order, and how many non-empty lines were skipped as malformed. */
export function parseHookCalls(text: string): { calls: HookCall[]; skipped: number } {
  const calls: HookCall[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const call = parseHookCall(line);
    if (call) calls.push(call);
    else skipped++;
  }
  return { calls, skipped };
}

export interface HookLogEntry {
  ts: string;
  /** The entry's first line without its time: what failed and why (the stack is left out). */
  message: string;
}

const ENTRY_START = /^(\d{4}-\d\d-\d\dT[\d:.]+Z) (.*)$/;

/** The entries of hooks.log (logHook's format: an ISO time, the line, indented stack lines), oldest first. */
export function parseHookLog(text: string): HookLogEntry[] {
  const entries: HookLogEntry[] = [];
  for (const line of text.split('\n')) {
    const m = ENTRY_START.exec(line);
    if (m) entries.push({ ts: m[1] as string, message: m[2] as string });
  }
  return entries;
}

/** An entry that says a hook failed or could not record (the rest are notes, such as a truncated payload). */
export const isHookFailure = (entry: HookLogEntry): boolean => / failed|not recorded/.test(entry.message);

/**
 * How a tool call ended: ok, error or blocked (a person or a hook refused it), with its exit
 * code, a one-line summary of its error and its duration, read from whatever the agent sent.
 * Pure functions. The error text is redacted before it is summarised, so the summary never
 * keeps a secret whose context the summary would drop; it is redacted again with every
 * stored field (redact.ts).
 */
import type { Outcome } from '../../store/observations.js';
import { asObject, nonBlank, num } from '../../core/fields.js';
import { redact } from '../../core/redact.js';

/** Tool errors that mean the call never ran because a person or a hook refused it. */
const BLOCKED = [
  /doesn't want to proceed with this tool use/i,
  /tool use was rejected/i,
  /permission to use .* (?:has been|was) denied/i,
  /blocked by (?:a |the )?(?:pre\w*\s)?hook/i,
  /operation (?:stopped|blocked) by hook/i,
  /user (?:denied|rejected|declined)/i,
  /request interrupted by user/i,
];

export function isBlockedError(text: string): boolean {
  return BLOCKED.some((re) => re.test(text));
}

/** Exit code from an error text such as "Exit code 2\n..." or "exited with code 1". */
export function exitCodeFrom(text: string): number | undefined {
  const m = /(?:^|\n)\s*(?:Error:\s*)?Exit code:?\s*(-?\d+)|exited with (?:exit )?code (-?\d+)/i.exec(text);
  const n = m ? Number(m[1] ?? m[2]) : Number.NaN;
  return Number.isInteger(n) ? n : undefined;
}

const ERROR_LINE =
  /\b(error|fail(?:ed|ure)?|fatal|panic|exception|denied|not found|no such|cannot|can't|undefined|invalid|refused|timed? ?out|unknown)\b/i;

/** One line that says what went wrong, preferring a line that names the error over the first line. */
export function summariseError(text: string): string {
  const cleaned = text
    .replace(/<\/?tool_use_error>/g, '')
    // eslint-disable-next-line no-control-regex -- terminal colour codes start with ESC
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/^\s*Error:\s*/i, '');
  const lines = cleaned
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^Exit code:?\s*-?\d+$/i.test(l));
  const code = exitCodeFrom(text);
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines[0] ?? '';
  const summary = code !== undefined ? `exit ${code}${line ? `: ${line}` : ''}` : line;
  return summary.replace(/\s+/g, ' ').trim();
}

interface ResultFacts {
  outcome: Outcome;
  /** The one-line summary of what went wrong ('' when nothing did), made from redacted text. */
  error: string;
  exitCode?: number;
}

/** What the agent said of a call's result: the failure flag, the error text and the response. */
export interface CallResult {
  /** The agent reported the call as failed (PostToolUseFailure, is_error). */
  failed?: boolean;
  /** The error text the agent gave, if any. */
  error?: string;
  response?: unknown;
}

/** Outcome, error summary and exit code from the failure flag, the error text and the response. */
export function resultFacts(call: CallResult): ResultFacts {
  const response = asObject(call.response);
  const code =
    num(response.exit_code) ?? num(response.exitCode) ?? num(response.returnCode) ?? (call.error ? exitCodeFrom(call.error) : undefined);
  const responseError = nonBlank(response.error) ?? (response.success === false ? (nonBlank(response.message) ?? 'failed') : undefined);
  const failed = call.failed === true || (code !== undefined && code !== 0) || response.interrupted === true || responseError !== undefined;
  if (!failed) return { outcome: 'ok', error: '', ...(code !== undefined ? { exitCode: code } : {}) };
  const message = call.error ?? responseError ?? nonBlank(response.stderr) ?? (response.interrupted === true ? 'interrupted' : 'failed');
  return {
    outcome: isBlockedError(message) ? 'blocked' : 'error',
    error: summariseError(redact(message)),
    ...(code !== undefined ? { exitCode: code } : {}),
  };
}

/** The call's duration in whole milliseconds, from the payload or the response; null when neither says. */
export function durationOf(call: { durationMs?: number; response?: unknown }): number | null {
  const response = asObject(call.response);
  const ms = num(call.durationMs) ?? num(response.durationMs) ?? num(response.duration_ms) ?? num(response.totalDurationMs);
  return ms !== undefined && ms >= 0 ? Math.round(ms) : null;
}

/**
 * How a tool call ended: ok, error or blocked (a person or a hook refused it), with its exit
 * code, a one-line summary of its error and its duration, read from whatever the agent sent.
 * Pure functions. The error text is redacted before it is summarised, so the summary never
 * keeps a secret whose context the summary would drop; it is redacted again with every
 * stored field (redact.ts).
 */
import type { Outcome } from '../../store/observations.js';
import { asObject, nonBlank, num, str } from '../../core/fields.js';
import { redact } from '../../core/redact.js';
import { truncate } from '../../core/text.js';

/** Tool errors that mean the call never ran because a person or a hook refused it. */
const BLOCKED = [
  /doesn't want to proceed with this tool use/i,
  /tool use was rejected/i,
  /permission to use .* (?:has been|was) denied/i,
  /blocked by (?:a |the )?(?:pre\w*\s)?hook/i,
  /operation (?:stopped|blocked) by hook/i,
  /user (?:denied|rejected|declined)/i,
  /request interrupted by user/i,
  /^rejected by the user\b/i,
];

export function isBlockedError(text: string): boolean {
  return BLOCKED.some((re) => re.test(text));
}

/** Exit code from a text such as "Exit code 2\n...", Gemini's "Exit Code: 3" or Codex's "Process exited with code 1". */
export function exitCodeFrom(text: string): number | undefined {
  const m = /(?:^|\n)\s*(?:Error:\s*)?Exit code:?\s*(-?\d+)|exited with (?:exit )?code (-?\d+)/i.exec(text);
  const n = m ? Number(m[1] ?? m[2]) : Number.NaN;
  return Number.isInteger(n) ? n : undefined;
}

const ERROR_LINE =
  /\b(error|fail(?:ed|ure)?|fatal|panic|exception|denied|not found|no such|cannot|can't|undefined|invalid|refused|timed? ?out|unknown)\b/i;

/** One line that says what went wrong, preferring a line that names the error over the first line. */
export function summariseError(text: string, code: number | undefined = exitCodeFrom(text)): string {
  const cleaned = text
    .replace(/<\/?(?:tool_use_error|untrusted_context)>/g, '')
    // Gemini's shell result wraps the output in labelled lines.
    .replace(/^\s*(?:Output|Error):\s*\((?:empty|none)\)\s*$/gim, '')
    .replace(/^\s*Process Group PGID:.*$/gim, '')
    .replace(/^\s*Output:\s*/gim, '')
    // eslint-disable-next-line no-control-regex -- terminal colour codes start with ESC
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .replace(/^\s*Error:\s*/i, '');
  const lines = cleaned
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !/^Exit code:?\s*-?\d+$/i.test(l));
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines[0] ?? '';
  const summary = code !== undefined ? `exit ${code}${line ? `: ${line}` : ''}` : line;
  const findings = [...new Set(lines.filter((l) => l !== line && FINDING.test(l)))].slice(0, MAX_FINDINGS);
  return truncate([summary, ...findings].map((l) => l.replace(/\s+/g, ' ').trim()).join(' | '), MAX_SUMMARY);
}

/**
 * Lines that each name one finding: a linter's rule in parentheses, a compiler's
 * file:line:col message, ESLint's "line:col  error  message  rule", a TypeScript code, a
 * shell's glob error. A lint run fails with a dozen of them under one "task failed" line; the
 * miners key fixes on each one's class.
 */
const FINDING =
  /\([a-z][\w-]*\)\s*$|^(?:\[[\w:.-]+\]\s*)?[\w./-]+\.\w+:\d+(?::\d+)?:\s|^\d+:\d+\s+error\s|error TS\d{4}|no matches found|build constraints exclude/;
const MAX_FINDINGS = 12;
const MAX_SUMMARY = 2_000;

/**
 * Failures a call that exited 0 still reported: a pipe (`mise run lint | tail`) hides the
 * linter's exit status, and zsh aborts one command of a list ("no matches found") while the
 * rest runs on. Only lines that cannot be ordinary output count: a linter finding with its
 * position and rule, a compiler's TypeScript code, a failing Go test, a shell's own error.
 */
const REPORTED =
  /^(?:\[[\w:.-]+\]\s*)?[\w./-]+\.\w+:\d+:\d+:\s.+\([a-z][\w-]*\)$|error TS\d{4}:|^--- FAIL: \w|^\((?:eval)\):\d+: |^zsh:\d*:? |: command not found$/;

export function reportedFindings(text: string): string {
  if (!text) return '';
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const found = [...new Set(lines.filter((l) => REPORTED.test(l)))].slice(0, MAX_FINDINGS + 1);
  return found.length ? truncate(found.map((l) => l.replace(/\s+/g, ' ')).join(' | '), MAX_SUMMARY) : '';
}

/** What the person said when refusing a call (Claude Code appends it after "the user said:"). */
function rejection(text: string): string {
  const said = /the user said:\s*([\s\S]+)/i.exec(text)?.[1]?.replace(/\s+/g, ' ').trim();
  return said ? `rejected by the user: ${truncate(said, 500)}` : 'rejected by the user';
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

/** What a tool answered as text: Codex's plain string, Gemini's llmContent (a string or parts), or an output field. */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  const r = asObject(response);
  if (typeof r.llmContent === 'string') return r.llmContent;
  if (Array.isArray(r.llmContent)) return r.llmContent.map((p) => (typeof p === 'string' ? p : (str(asObject(p).text) ?? ''))).join('\n');
  return str(r.output) ?? '';
}

/** Everything a call printed: the text above, or Claude Code's Bash stdout and stderr. */
function printed(response: unknown): string {
  const r = asObject(response);
  return responseText(response) || [str(r.stdout), str(r.stderr)].filter(Boolean).join('\n');
}

/** The error a response carries: a string, or an object with a message (Gemini). */
function responseError(response: Record<string, unknown>): string | undefined {
  const error = nonBlank(response.error) ?? nonBlank(asObject(response.error).message);
  if (error) return error;
  return response.success === false ? (nonBlank(response.message) ?? 'failed') : undefined;
}

/** Outcome, error summary and exit code from the failure flag, the error text and the response. */
export function resultFacts(call: CallResult): ResultFacts {
  const response = asObject(call.response);
  const text = responseText(call.response);
  const code =
    num(response.exit_code) ??
    num(response.exitCode) ??
    num(response.returnCode) ??
    (call.error ? exitCodeFrom(call.error) : undefined) ??
    (text ? exitCodeFrom(text) : undefined);
  const errorText = responseError(response);
  const failed = call.failed === true || (code !== undefined && code !== 0) || response.interrupted === true || errorText !== undefined;
  if (!failed)
    return { outcome: 'ok', error: reportedFindings(redact(printed(call.response))), ...(code !== undefined ? { exitCode: code } : {}) };
  const message =
    call.error ?? errorText ?? nonBlank(response.stderr) ?? nonBlank(text) ?? (response.interrupted === true ? 'interrupted' : 'failed');
  const blocked = isBlockedError(message);
  return {
    outcome: blocked ? 'blocked' : 'error',
    error: blocked ? rejection(redact(message)) : summariseError(redact(message), code),
    ...(code !== undefined ? { exitCode: code } : {}),
  };
}

/** The call's duration in whole milliseconds, from the payload or the response; null when neither says. */
export function durationOf(call: { durationMs?: number; response?: unknown }): number | null {
  const response = asObject(call.response);
  const ms = num(call.durationMs) ?? num(response.durationMs) ?? num(response.duration_ms) ?? num(response.totalDurationMs);
  return ms !== undefined && ms >= 0 ? Math.round(ms) : null;
}

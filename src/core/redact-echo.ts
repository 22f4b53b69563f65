/**
 * A tool call redacted as one: what redaction hid in the call's input is hidden wherever
 * the call's output repeats it. A command that carries a password (psql
 * postgresql://admin:PW@host, mysql -pPW) often fails with an error that prints the same
 * password where no rule can tell it is one. Pure functions.
 */
import { REDACT_SCAN_LIMIT, redactDeep } from './redact.js';
import { isReference, mark } from './secret-values.js';

/** The values redaction hid in an input, each with the kind of its mark. */
export type HiddenValues = ReadonlyMap<string, string>;

/** An echo shorter than this would hide too much that merely looks like it. */
const MIN_ECHO = 4;
/** A lower-case word this short (admin, root, test) is hidden where it stands, never in the output. */
const COMMON_WORD = /^[a-z]{1,7}$/;
const MARK_SPLIT = /(\[REDACTED:[A-Za-z0-9_.-]{1,40}\])/;

/** A hidden value worth hiding in the output too: long enough, not a common word, not a reference. */
function echoable(value: string): boolean {
  return value.length >= MIN_ECHO && !COMMON_WORD.test(value) && !isReference(value);
}

/**
 * The values redaction took out of `before` to give `after`, each with its mark's kind. Marks
 * side by side count as one value. Stops where the texts disagree (nothing is guessed).
 */
export function hiddenValues(before: string, after: string, into = new Map<string, string>()): Map<string, string> {
  const parts = after.split(MARK_SPLIT);
  if (parts.length < 3 || !before.startsWith(parts[0] ?? '')) return into;
  let pos = (parts[0] ?? '').length;
  for (let i = 1; i < parts.length; i += 2) {
    const kind = /:([^\]]+)\]/.exec(parts[i] ?? '')?.[1] ?? 'secret';
    while (parts[i + 1] === '' && i + 2 < parts.length) i += 2;
    const literal = parts[i + 1] ?? '';
    const end = literal ? before.indexOf(literal, pos + 1) : before.length;
    if (end < 0) return into;
    const value = before.slice(pos, end).replace(/^["'`]+|["'`]+$/g, '');
    if (echoable(value)) into.set(value, kind);
    pos = end + literal.length;
  }
  return into;
}

/** hiddenValues of every string in a JSON-like value, against its redacted twin. */
function hiddenDeep(before: unknown, after: unknown, into: Map<string, string>): void {
  if (typeof before === 'string' && typeof after === 'string') hiddenValues(before, after, into);
  else if (Array.isArray(before) && Array.isArray(after)) before.forEach((v, i) => hiddenDeep(v, after[i], into));
  else if (before !== null && typeof before === 'object' && after !== null && typeof after === 'object')
    for (const [k, v] of Object.entries(before)) hiddenDeep(v, (after as Record<string, unknown>)[k], into);
}

/** A call's input redacted (redactDeep), with the values it hid, for hideEchoes to hide in the output. */
export function redactInput<T>(input: T, maxChars = REDACT_SCAN_LIMIT): { input: T; hidden: HiddenValues } {
  const redacted = redactDeep(input, maxChars);
  const hidden = new Map<string, string>();
  hiddenDeep(input, redacted, hidden);
  return { input: redacted, hidden };
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A value as it stands alone: not the middle of a longer word or number. */
function echoPattern(value: string): RegExp {
  const before = /^[A-Za-z0-9]/.test(value) ? '(?<![A-Za-z0-9])' : '';
  const after = /[A-Za-z0-9]$/.test(value) ? '(?![A-Za-z0-9])' : '';
  return new RegExp(`${before}${escape(value)}${after}`, 'g');
}

/** Every string in `output` (a text or a JSON-like value) with the input's hidden values marked as they were there. */
export function hideEchoes<T>(output: T, hidden: HiddenValues): T {
  if (hidden.size === 0) return output;
  // Longest first: a value that holds a shorter one is hidden whole.
  const patterns = [...hidden].sort(([a], [b]) => b.length - a.length).map(([v, kind]) => [echoPattern(v), mark(kind)] as const);
  const hide = (value: unknown): unknown => {
    if (typeof value === 'string') return patterns.reduce((text, [re, m]) => text.replace(re, m), value);
    if (Array.isArray(value)) return value.map(hide);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, hide(v)]));
    return value;
  };
  return hide(output) as T;
}

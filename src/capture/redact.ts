/**
 * The last step before anything is stored (or spooled): every text field of an observation
 * redacted (core/redact.ts) and cut to its limit.
 */
import { redact } from '../core/redact.js';
import { truncate } from '../core/text.js';
import type { NewObservation } from '../store/observations.js';

const MAX_INPUT_CHARS = 2_000;
const MAX_PROMPT_CHARS = 4_000;
const MAX_ERROR_CHARS = 500;
const MAX_INTENT_CHARS = 500;
const MAX_PATTERN_CHARS = 500;
const MAX_PATH_CHARS = 1_000;
const MAX_REASON_CHARS = 100;
/** Text is cut to this before redaction (redaction then sees everything that could be kept). */
const PRE_CUT = 16 * 1024;

const clean = (text: string, max: number): string => truncate(redact(text.length > PRE_CUT ? text.slice(0, PRE_CUT) : text).trim(), max);

/** The stored form of a prompt: redacted and cut to MAX_PROMPT_CHARS. */
export const promptText = (prompt: string): string => clean(prompt, MAX_PROMPT_CHARS);

function redactTool(o: NewObservation): NewObservation {
  const data = o.data && typeof o.data.pattern === 'string' ? { ...o.data, pattern: clean(o.data.pattern, MAX_PATTERN_CHARS) } : o.data;
  return {
    ...o,
    intent: clean(o.intent ?? '', MAX_INTENT_CHARS),
    input: clean(o.input ?? '', MAX_INPUT_CHARS),
    files: (o.files ?? []).map((f) => clean(f, MAX_PATH_CHARS)),
    error: clean(o.error ?? '', MAX_ERROR_CHARS),
    ...(data ? { data } : {}),
  };
}

/**
 * An observation as it may be stored. A prompt passes as it is: its text went through
 * promptText before its id was made from it.
 */
export function redactObservation(o: NewObservation): NewObservation {
  if (o.event === 'tool') return redactTool(o);
  if (o.event === 'prompt') return o;
  return { ...o, input: clean(o.input ?? '', MAX_REASON_CHARS) };
}

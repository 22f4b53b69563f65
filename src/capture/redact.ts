/**
 * Redaction at capture, twice over. A tool call is redacted as the agent sent it, before
 * mapping derives anything from it (base command, files, file names, pattern), so no
 * derived field can carry what the text hid. Then every text field of the observation is
 * redacted again (core/redact.ts) and cut to its limit: the last step before anything is
 * stored or spooled.
 */
import { redact, redactDeep } from '../core/redact.js';
import { hideEchoes, redactInput } from '../core/redact-echo.js';
import { truncate } from '../core/text.js';
import type { NewObservation } from '../store/observations.js';
import type { HookInput } from './agents.js';

const MAX_INPUT_CHARS = 2_000;
const MAX_PROMPT_CHARS = 4_000;
const MAX_ERROR_CHARS = 500;
const MAX_INTENT_CHARS = 500;
const MAX_PATH_CHARS = 1_000;
const MAX_REASON_CHARS = 100;
const MAX_DATA_CHARS = 500;
/** Text is cut to this before redaction (redaction then sees everything that could be kept). */
const PRE_CUT = 16 * 1024;

const cut = (text: string): string => (text.length > PRE_CUT ? text.slice(0, PRE_CUT) : text);
const clean = (text: string, max: number): string => truncate(redact(cut(text)).trim(), max);

/** The stored form of a prompt: redacted and cut to MAX_PROMPT_CHARS. */
export const promptText = (prompt: string): string => clean(prompt, MAX_PROMPT_CHARS);

/** The stored form of a short free text (a session's title, a reason). */
export const shortText = (text: string): string => clean(text, MAX_INTENT_CHARS);

type ToolEvent = NonNullable<HookInput['tool']>;

/**
 * A tool call with what the agent sent redacted: mapping derives fields from this, never
 * from the raw call. What the input's redaction hid is hidden from the response and the
 * error too, where a failing command often prints it again (redact-echo.ts). The response
 * is otherwise read only for the call's outcome; its error text is redacted before it is
 * summarised (map/outcome.ts), so the bulk of it (file contents, command output) is never
 * scanned.
 */
export function redactToolCall(tool: ToolEvent): ToolEvent {
  const { input, hidden } = redactInput(tool.input, PRE_CUT);
  return {
    ...tool,
    name: redact(tool.name),
    input,
    ...(tool.response !== undefined ? { response: hideEchoes(tool.response, hidden) } : {}),
    ...(tool.error !== undefined ? { error: redact(hideEchoes(cut(tool.error), hidden)) } : {}),
  };
}

function redactTool(o: NewObservation): NewObservation {
  return {
    ...o,
    tool: clean(o.tool ?? '', MAX_PATH_CHARS),
    cwd: clean(o.cwd ?? '', MAX_PATH_CHARS),
    intent: clean(o.intent ?? '', MAX_INTENT_CHARS),
    input: clean(o.input ?? '', MAX_INPUT_CHARS),
    files: (o.files ?? []).map((f) => clean(f, MAX_PATH_CHARS)),
    error: clean(o.error ?? '', MAX_ERROR_CHARS),
    ...(o.data ? { data: redactData(o.data) } : {}),
  };
}

/** The miners' data (base command, file name, pattern, server ...): every string redacted and cut. */
function redactData(data: Record<string, unknown>): Record<string, unknown> {
  const out = redactDeep(data, PRE_CUT);
  for (const [k, v] of Object.entries(out)) if (typeof v === 'string') out[k] = truncate(v.trim(), MAX_DATA_CHARS);
  return out;
}

/**
 * An observation as it may be stored. A prompt's text went through promptText before its
 * id was made from it; its other fields are redacted like any other event's.
 */
export function redactObservation(o: NewObservation): NewObservation {
  if (o.event === 'tool') return redactTool(o);
  const common = { ...o, cwd: clean(o.cwd ?? '', MAX_PATH_CHARS), ...(o.data ? { data: redactData(o.data) } : {}) };
  if (o.event === 'prompt') return common;
  return { ...common, input: clean(o.input ?? '', MAX_REASON_CHARS) };
}

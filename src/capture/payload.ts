/**
 * A hook's payload, parsed leniently: the first step of capture. A payload too big to keep
 * whole (or cut short) is salvaged: the small top-level fields that precede the tool's
 * response are still read.
 */
import { isObj } from '../core/fields.js';

/** Payloads up to this size are parsed whole; beyond it only the head is kept and salvaged. */
export const MAX_PAYLOAD_BYTES = 8 * 1024 * 1024;

export interface RawPayload {
  text: string;
  bytes: number;
  truncated: boolean;
}

/** A payload already held as a string (in-process replays and tests). */
export const rawPayload = (text: string): RawPayload => ({ text, bytes: Buffer.byteLength(text), truncated: false });

/** Top-level fields worth salvaging from a payload that does not parse. */
// prettier-ignore
const SALVAGE_FIELDS = [
  'session_id', 'conversation_id', 'generation_id', 'hook_event_name', 'cwd', 'transcript_path', 'tool_name', 'tool_use_id',
  'prompt', 'source', 'reason', 'timestamp', 'command', 'file_path',
];

/** The small fields of a tool's input worth keeping when the input itself (a whole file's content) is cut. */
const INPUT_FIELDS = ['file_path', 'notebook_path', 'path', 'command', 'pattern', 'url', 'description'];

/** How far into a cut tool_input its small fields are looked for (they come before the content). */
const INPUT_HEAD_CHARS = 64 * 1024;

/** The string fields of `names` found in `text`, each its first occurrence; with `cut`, one the text ends inside is kept as far as it goes. */
function stringFields(text: string, names: readonly string[], cut = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of names) {
    const m = new RegExp(`"${field}"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)(?:"${cut ? '|\\\\?$' : ''})`).exec(text);
    const value = m?.[1] === undefined ? undefined : stringBody(m[1]);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/** The JSON object starting at `start` (a `{`), or undefined when it does not close. */
function objectAt(text: string, start: number): unknown {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** A JSON string body, even one cut at the end of the text (an escape cut in half is dropped). */
function stringBody(body: string): string | undefined {
  // An escape is at most 6 characters (\uXXXX): dropping up to 5 from the end repairs any cut.
  for (let drop = 0; drop <= 5 && drop <= body.length; drop++) {
    try {
      return JSON.parse(`"${body.slice(0, body.length - drop)}"`) as string;
    } catch {
      // try a shorter cut
    }
  }
  return undefined;
}

/**
 * Best-effort fields from broken JSON; only the part before any tool_response is trusted. The
 * prompt may run to the end of a payload cut at the size limit: it is kept, cut, not dropped.
 */
export function salvage(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const responseAt = text.indexOf('"tool_response"');
  const head = responseAt >= 0 ? text.slice(0, responseAt) : text.slice(0, 1024 * 1024);
  Object.assign(out, stringFields(head, SALVAGE_FIELDS));
  if (out.prompt === undefined && responseAt < 0) {
    const cut = /"prompt"\s*:\s*"((?:[^"\\]|\\.)*)(?:"|\\?$)/.exec(text);
    const value = cut?.[1] === undefined ? undefined : stringBody(cut[1]);
    if (value !== undefined) out.prompt = value;
  }
  const inputAt = /"tool_input"\s*:\s*\{/.exec(head);
  if (inputAt) {
    const value = objectAt(text, inputAt.index + inputAt[0].length - 1);
    // Cut inside (a 9 MB Write): its path and command still say what the call did.
    // A command of megabytes is cut with the payload: its start is what it did.
    const partial = value ?? stringFields(text.slice(inputAt.index, inputAt.index + INPUT_HEAD_CHARS), INPUT_FIELDS, true);
    if (value !== undefined || Object.keys(partial).length) out.tool_input = partial;
  }
  return out;
}

interface ParsedPayload {
  value: Record<string, unknown>;
  /** 'json' parsed whole; 'salvaged' from broken or cut JSON; 'not-object' JSON of another kind ([], null, "text"); 'empty' nothing usable. */
  mode: 'json' | 'salvaged' | 'not-object' | 'empty';
}

export function parsePayload(raw: RawPayload): ParsedPayload {
  const text = raw.text.replace(/^\uFEFF/, '');
  if (!raw.truncated) {
    try {
      const value: unknown = JSON.parse(text);
      if (isObj(value)) return { value, mode: 'json' };
      return { value: {}, mode: 'not-object' };
    } catch {
      // fall through to salvage
    }
  }
  const value = salvage(text);
  return Object.keys(value).length ? { value, mode: 'salvaged' } : { value: {}, mode: 'empty' };
}

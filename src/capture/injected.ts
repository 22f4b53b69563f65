/**
 * Text Homunculus injected, recognised when it comes back. Every injected block starts with
 * the header line below; a client that repeats it inside a prompt (headless Gemini CLI puts
 * session-start context in front of the prompt) must not make us store our own memory as
 * the user's words, nor search with it. Pure: the one place that knows the marker.
 */

/** The first line of every block Homunculus injects. */
export const MEMORY_HEADER = '[HOMUNCULUS MEMORY]';

/** Where an echoed block ends: the closing tag of our fence, the client's own wrapper (Gemini's `</hook_context>`) or an end line of ours. */
const BLOCK_END = /(?:<|&lt;)\/homunculus-memory-[0-9a-f]+(?:>|&gt;)|<\/hook_context>|^\[END HOMUNCULUS MEMORY\]$/m;
/** Our fence's opening tag: a block cut before its end is ours only when it has one. */
const FENCE_OPEN = /(?:<|&lt;)homunculus-memory-[0-9a-f]+(?:>|&gt;)/;
/** Wrappers a client puts right before the block, taken out with it. */
const WRAPPER_OPEN = /<hook_context>\s*$/;
const WRAPPER_CLOSE = /^\s*<\/hook_context>/;

/** Marks a block of context as ours (nothing to mark when there is no text). */
export function markInjected(text: string): string {
  if (!text || text.startsWith(MEMORY_HEADER)) return text;
  return `${MEMORY_HEADER}\n${text}`;
}

/**
 * The text without any block Homunculus injected: from a header at a line's start to the end
 * of its block (the client's closing wrapper, our end line, or, when the text was cut, its
 * end), with the wrapper that opened it. A header the user wrote inside a sentence, or at a
 * line's start with words after it and no block of ours, is their words and stays.
 * Everything else is kept as it was, then trimmed.
 */
export function stripInjected(text: string): string {
  if (!text.includes(MEMORY_HEADER)) return text;
  let out = text;
  for (let at = out.indexOf(MEMORY_HEADER); at >= 0; at = out.indexOf(MEMORY_HEADER, at + 1)) {
    const before = out.slice(0, at);
    const open = WRAPPER_OPEN.exec(before);
    if (!open && !/(?:^|\n)[^\S\n]*$/.test(before)) continue;
    const rest = out.slice(at + MEMORY_HEADER.length);
    const end = BLOCK_END.exec(rest);
    if (!end && !FENCE_OPEN.test(rest) && !/^[^\S\n]*(?:\n|$)/.test(rest)) continue;
    const start = open ? open.index : at;
    let stop = end ? at + MEMORY_HEADER.length + end.index + end[0].length : out.length;
    // The client's wrapper closes after our fence: it goes with the block it opened.
    const close = open ? WRAPPER_CLOSE.exec(out.slice(stop)) : null;
    if (close) stop += close[0].length;
    out = `${out.slice(0, start)}${out.slice(stop)}`;
    at = start - 1;
  }
  return out.trim();
}

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
/** Wrappers a client puts right before the block, taken out with it. */
const WRAPPER_OPEN = /<hook_context>\s*$/;
const WRAPPER_CLOSE = /^\s*<\/hook_context>/;

/** Marks a block of context as ours (nothing to mark when there is no text). */
export function markInjected(text: string): string {
  if (!text || text.startsWith(MEMORY_HEADER)) return text;
  return `${MEMORY_HEADER}\n${text}`;
}

/**
 * The text without any block Homunculus injected: from a header line to the end of its block
 * (the client's closing wrapper, our end line, or else the end of the text), with the
 * wrapper that opened it. Everything else is kept as it was, then trimmed.
 */
export function stripInjected(text: string): string {
  if (!text.includes(MEMORY_HEADER)) return text;
  let out = text;
  for (let at = out.indexOf(MEMORY_HEADER); at >= 0; at = out.indexOf(MEMORY_HEADER)) {
    const before = out.slice(0, at);
    const open = WRAPPER_OPEN.exec(before);
    const start = open ? open.index : at;
    const rest = out.slice(at + MEMORY_HEADER.length);
    const end = BLOCK_END.exec(rest);
    let stop = end ? at + MEMORY_HEADER.length + end.index + end[0].length : out.length;
    // The client's wrapper closes after our fence: it goes with the block it opened.
    const close = open ? WRAPPER_CLOSE.exec(out.slice(stop)) : null;
    if (close) stop += close[0].length;
    out = `${out.slice(0, start)}${out.slice(stop)}`;
  }
  return out.trim();
}

/**
 * What the user wrote in a prompt, apart from what they pasted into it. Preferences,
 * corrections, decisions and recurring requests are said by a person; a pasted plan, log,
 * stack trace, diff, lint run or review bot's comment says nothing about them. Text the
 * client wrote into the prompt (a resumed conversation's summary, a command's output, an
 * accepted plan) is not the user at all. Pure functions, no I/O.
 */

/** Whole prompts the client wrote on the user's behalf. */
const CLIENT_TEXT =
  /^\s*(?:this session is being continued|caveat:|<command-|<local-command|<task-notification|<system-reminder|<bash-|\[request interrupted|implement the following plan)/i;

/** Blocks delimited as quoted material: fenced code and triple-quoted text. */
const DELIMITED = /```[\s\S]*?(?:```|$)|"""[\s\S]*?(?:"""|$)/g;

/** Single lines that are output, not speech. */
const PASTED_LINE = [
  /^\s*(?:>|\||#|<\/?[a-z!])/i, // quotes, tables, headings, markup
  /^(?: {4}|\t)/, // indented code
  /^\s*(?:[+-]{3} |@@ |diff --git |index [0-9a-f]{7})/, // diffs
  /^\s*at \S+ \(?\S+:\d+(?::\d+)?\)?$|^\s*File ".+", line \d+|^goroutine \d+ \[|^Traceback \(most recent call last\)/, // stack traces
  /^\s*\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|^\s*\[?\d\d:\d\d:\d\d[\].,\s]/, // log lines
  /^\s*(?:\[[\w:.-]+\]\s*)?[\w./-]+\.\w+:\d+(?::\d+)?:\s/, // compiler and linter findings
  /^\s*(?:\$|❯|%) \S/, // a shell session
  /\S[ \t]{8,}$/, // a terminal's line, padded to its width (an agent's answer copied from it)
  /^\s*(?:={3,}|-{3,}\s*\S)/, // a script's banners ("=== Step 3 ===")
  /^\s*(?:error|warning|fatal|panic|ERR!?)(?:\[\w+\])?:\s/i, // tool messages
  // JSON: a quoted key's line, a bracket's line (its indented body gone, the skeleton would say "empty")
  /^\s*"[^"\n]{1,80}"\s*:\s*\S|^\s*[[\]{}]+[,;]?\s*$/,
];

/** A code comment quoted inline, after a colon. */
const INLINE_COMMENT = /:[ \t]+(?:#|\/\/)[ \t].*$/;

/** A review bot's finding: a title line, then its severity on a line of its own. */
const SEVERITY = /^\s*(?:low|medium|high|critical) severity\s*$/i;
/** Past this, a line after a lead-in ending with ":" is pasted prose (a finding, an issue body). */
const LONG_PASTED_LINE = 300;

export const isClientText = (prompt: string): boolean => CLIENT_TEXT.test(prompt);

/** The prompt without what was pasted into it ('' for text the client wrote). */
export function authoredText(prompt: string): string {
  if (isClientText(prompt)) return '';
  const lines = prompt.replace(DELIMITED, '\n').split(/\r?\n/);
  const severity = lines.findIndex((l) => SEVERITY.test(l));
  // Everything from the finding's title on is the bot's.
  const title = severity < 0 ? lines.length : lines.slice(0, severity).findLastIndex((l) => l.trim() !== '');
  const kept: string[] = [];
  let introduced = false;
  for (const raw of lines.slice(0, Math.max(0, title))) {
    if (PASTED_LINE.some((re) => re.test(raw))) continue;
    // A code comment quoted after a colon ("it has: # Note: … don't commit it") is the code's.
    const line = raw.replace(INLINE_COMMENT, ':');
    if (introduced && line.length > LONG_PASTED_LINE) continue;
    if (/:\s*$/.test(line)) introduced = true;
    kept.push(line);
  }
  return kept
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

interface SentenceOptions {
  min?: number;
  max?: number;
  /** Read list items too (their markers dropped); off, a list is taken for steps of a plan. */
  lists?: boolean;
}

const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+/;

/** The user's sentences, split on line breaks and sentence ends. */
export function authoredSentences(prompt: string, { min = 4, max = 300, lists = true }: SentenceOptions = {}): string[] {
  return authoredText(prompt)
    .split(/\n+/)
    .filter((line) => lists || !LIST_ITEM.test(line))
    .flatMap((line) => line.split(/(?<=[.!?])\s+/))
    .map((s) => s.replace(LIST_ITEM, '').replace(/\s+/g, ' ').trim())
    .filter((s) => s.length >= min && s.length <= max);
}

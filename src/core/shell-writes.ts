/**
 * The files a shell command line writes by itself, read from its text: the targets of output
 * redirections (`> f`, `>> f`, `>| f`, `&> f`, `2> f`) and of `tee`. Conservative: a target
 * the text alone cannot name (an expansion, a glob, `~`, a process substitution), a device
 * (/dev/null), a descriptor (`2>&1`, `>&2`) and a `>` inside quotes or a `[[ a > b ]]` test
 * give nothing. Commands that write where their arguments say (cp, mv, sed -i) are left out:
 * the destination may be a folder. Pure.
 */
import { shellWords, splitShell } from './shell.js';

/** Characters that end an unquoted word after a redirection. */
const WORD_END = /[\s<>|&;()]/;
/** A target holding any of these depends on the shell's expansions, or was cut (…) or redacted ([REDACTED]) before it was stored. */
// eslint-disable-next-line no-control-regex -- control characters never belong in a file name here
const NOT_PLAIN = /[$`*?[\]{}~…\u0000-\u001f]/;

const plainTarget = (word: string): boolean => word !== '' && !NOT_PLAIN.test(word) && !word.startsWith('/dev/');

/** The word starting at `from` (quotes removed), and where it ends. */
function wordAt(text: string, from: number): { word: string; end: number } {
  let word = '';
  let quote: string | undefined;
  let i = from;
  for (; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\' && i + 1 < text.length) word += text[++i];
    else if (WORD_END.test(c)) break;
    else word += c;
  }
  return { word, end: i };
}

/** The target of the redirection whose `>` is at `at`, or undefined for a duplication (`>&2`) or a process substitution. */
function redirectTarget(text: string, at: number): { target?: string; end: number } {
  let i = at + 1;
  if (text[i] === '>' || text[i] === '|') i++;
  // `>&2`, `2>&1`, `>&-`: a descriptor, not a file (`&>` is the file form, its & comes before).
  if (text[i] === '&') return { end: i + 1 };
  while (text[i] === ' ' || text[i] === '\t') i++;
  if (text[i] === '(') return { end: i + 1 };
  const { word, end } = wordAt(text, i);
  return { ...(plainTarget(word) ? { target: word } : {}), end };
}

/** Tests and arithmetic, where `>` compares: `[[ a > b ]]`, `(( n > 3 ))`, `$((n > 3))`. */
const COMPARISONS = /\[\[[^\n]*?\]\]|\(\([^\n]*?\)\)/g;

/** The redirection targets of one simple command: unquoted, unescaped `>` only, outside tests and arithmetic. */
function redirections(simple: string): string[] {
  const text = simple.replace(COMPARISONS, ' ');
  const targets: string[] = [];
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '\\') i++;
    else if (c === '>' && text[i - 1] !== '<') {
      const { target, end } = redirectTarget(text, i);
      if (target !== undefined) targets.push(target);
      i = end - 1;
    }
  }
  return targets;
}

/** A heredoc whose closing line is missing (the stored command was cut): its body is read as no command at all. */
function withoutOpenHeredoc(commandLine: string): string {
  for (const m of commandLine.matchAll(/<<-?[ \t]*(['"]?)(\w+)\1/g)) {
    const lineEnd = commandLine.indexOf('\n', m.index);
    if (lineEnd < 0) break;
    const closed = new RegExp(`\\n[ \\t]*${m[2]}[ \\t]*(\\n|$)`).test(commandLine.slice(lineEnd));
    if (!closed) return commandLine.slice(0, lineEnd);
  }
  return commandLine;
}

/** The files `tee` writes: its arguments that are no option (`tee -a log.txt` gives log.txt). */
function teeFiles(simple: string): string[] {
  const words = shellWords(simple);
  const at = words[0] === 'sudo' ? 1 : 0;
  if (words[at] !== 'tee') return [];
  return words.slice(at + 1).filter((w) => !w.startsWith('-') && !/[<>|&;()]/.test(w) && plainTarget(w));
}

/** The files a command line writes by redirection or `tee`, as written (relative ones are the caller's to resolve), once each. */
export function shellWrittenFiles(commandLine: string): string[] {
  const files = splitShell(withoutOpenHeredoc(commandLine)).flatMap(({ text }) => [...redirections(text), ...teeFiles(text)]);
  return [...new Set(files)];
}

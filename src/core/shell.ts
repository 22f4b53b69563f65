/**
 * Shell command lines as text: split into simple commands at the operators that join them,
 * and a simple command into words. Enough grammar to tell what runs, not to run it: quotes,
 * backslashes, continued lines and heredoc bodies are understood; expansions are not.
 */

export type Joiner = '&&' | '||' | ';' | '|' | '';

export interface SimpleCommand {
  /** As typed, trimmed. */
  text: string;
  /** How it joins the next one ('' for the last). */
  joiner: Joiner;
}

/** A heredoc's body is data, not commands: `cat <<EOF > f` stays, the lines up to EOF go. */
const HEREDOC = /<<-?[ \t]*(['"]?)(\w+)\1([^\n]*)\n[\s\S]*?\n[ \t]*\2[ \t]*(?=\n|$)/g;

/** Splits at &&, ||, ;, | (and |&) and newlines, outside quotes; `>|` and a single `&` do not split. */
export function splitShell(commandLine: string): SimpleCommand[] {
  const text = commandLine.replace(HEREDOC, '<<$2$3').replace(/\\\r?\n/g, ' ');
  const parts: SimpleCommand[] = [];
  let current = '';
  let quote: string | undefined;
  const end = (joiner: Joiner): void => {
    const trimmed = current.trim();
    if (trimmed) parts.push({ text: trimmed, joiner });
    current = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '\\' && quote !== "'" && next !== undefined) {
      current += c + next;
      i++;
      continue;
    }
    if (quote) {
      if (c === quote) quote = undefined;
      current += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      current += c;
      continue;
    }
    let joiner: Joiner | undefined;
    if (c === '&' && next === '&') joiner = '&&';
    else if (c === '|' && next === '|') joiner = '||';
    else if (c === '|' && text[i - 1] !== '>') joiner = '|';
    else if (c === ';' || c === '\n') joiner = ';';
    if (joiner === undefined) {
      current += c;
      continue;
    }
    end(joiner);
    if (joiner.length === 2 || (joiner === '|' && next === '&')) i++;
  }
  end('');
  return parts;
}

/**
 * The pipelines whose exit status can be the whole line's, last first: a line exits as the
 * last thing that ran, and only `&&` lets an earlier one be that (its failure stops the chain);
 * after `;` or `||` something later always ran. `a; b && c | d` gives [c | d], [b].
 */
export function statusPipelines(parts: readonly SimpleCommand[]): SimpleCommand[][] {
  const out: SimpleCommand[][] = [];
  let end = parts.length - 1;
  while (end >= 0) {
    let start = end;
    while (start > 0 && parts[start - 1]?.joiner === '|') start--;
    out.push(parts.slice(start, end + 1));
    if (parts[start - 1]?.joiner !== '&&') break;
    end = start - 1;
  }
  return out;
}

/** Characters a backslash escapes inside double quotes; before any other it stays. */
const DOUBLE_QUOTE_ESCAPES = new Set(['"', '\\', '$', '`', '\n']);

/** The words of one simple command, quotes and escapes removed: `git commit -m "a b"` gives git, commit, -m, a b. */
export function shellWords(simple: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < simple.length; i++) {
    const c = simple[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (c === '\\' && i + 1 < simple.length) {
      const escaped = simple[++i] as string;
      word = (word ?? '') + (quote === '"' && !DOUBLE_QUOTE_ESCAPES.has(escaped) ? c : '') + escaped;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

/** The message of a `git commit -m "..."` segment, if the command makes one. */
export function commitMessage(command: string): string | undefined {
  for (const segment of command.split(/&&|;|\|\|/)) {
    const words = shellWords(segment.trim());
    const at = words.findIndex((w, i) => w === 'commit' && words[i - 1] === 'git');
    if (at < 0) continue;
    const flag = words.findIndex((w, i) => i > at && (w === '-m' || w === '--message' || /^-[a-z]*m$/.test(w)));
    const message = flag >= 0 ? words[flag + 1] : undefined;
    // A heredoc message arrives as `$(cat <<'EOF' ... EOF)`: its body is the message.
    const body = message?.replace(/^\$\(cat <<'?EOF'?\s*/, '').replace(/\s*EOF\s*\)$/, '');
    if (body?.trim()) return body.trim();
  }
  return undefined;
}

/** The command line an agent runs for a hook, and recognising one this tool installed. */
import { CLI_ENTRY } from '../../core/entry.js';

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `"${word.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The command prefix hooks use: `node /abs/dist/cli/bin.js` (no PATH lookup, no shell start-up files). */
export function defaultCommandPrefix(): string {
  return `${shellQuote(process.execPath)} ${shellQuote(CLI_ENTRY)}`;
}

/** Words of a command line, honouring double and single quotes (enough to find its paths again). */
export function commandWords(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g))
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3] ?? ''));
  return out;
}

/** True for a hook command this tool installed: `... homunculus|bin.js hook <name>`. */
export function isHomunculusHookCommand(command: unknown): boolean {
  return typeof command === 'string' && /(?:homunculus|\/cli\/bin\.js)["']?\s+hook\s+(?:observe|start|prompt|recall|stop)\b/.test(command);
}

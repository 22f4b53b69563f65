/** The command line an agent runs for a hook, and recognising one this tool installed. */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { cliEntry } from '../../core/entry.js';
import { INSTALL_COMMAND } from '../../core/package.js';

/** Quotes a word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `"${word.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** The first executable file called `name` in the directories of `path`. */
export function findOnPath(name: string, path: string | undefined): string | undefined {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

interface HookPrefix {
  /** What every hook command starts with, e.g. `homunculus` or `/usr/bin/node /clone/dist/cli/bin.js`. */
  prefix: string;
  /** Says how the prefix was chosen when the user may want to know (another installation, or no PATH entry). */
  note?: string;
}

/**
 * How hooks run Homunculus. Through `homunculus` on PATH when there is one, so the hooks
 * survive a Node upgrade and a moved clone; otherwise this node binary and this bin.js.
 */
export function hookCommandPrefix(env: NodeJS.ProcessEnv, entry: string = cliEntry()): HookPrefix {
  const onPath = findOnPath('homunculus', env.PATH);
  if (onPath) {
    if (realPath(onPath) === realPath(entry)) return { prefix: 'homunculus' };
    return {
      prefix: 'homunculus',
      note: `Hooks run the homunculus on PATH (${onPath}), which is another installation than this one (${entry}).`,
    };
  }
  return {
    prefix: `${shellQuote(process.execPath)} ${shellQuote(entry)}`,
    note:
      'Hooks run this node binary and this installation by absolute path (no homunculus on PATH): they break if either moves. ' +
      `\`${INSTALL_COMMAND}\` (or \`npm link\` in a clone), then run init again, to make them survive both.`,
  };
}

/** What a hook command adds for a home other than the one Homunculus finds by itself. */
export const homeFlag = (home: string | undefined): string => (home ? ` --home ${shellQuote(home)}` : '');

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

/** Running an application operation from the command line: flags in, validated once by the operation, text or JSON out. */
import type { Command } from 'commander';
import type { z } from 'zod';
import { type AppContext, InputError, type Operation, parseInput } from '../app/operation.js';
import type { Store } from '../store/store.js';
import { globals, withCommandStore } from './context.js';
import { emit } from './output.js';
import { progressBar } from './progress.js';

/** `minEvidence` -> `--min-evidence`, unless the command names the field otherwise (a positional `<pattern>`). */
const flagName =
  (names: Record<string, string> = {}) =>
  (path: string): string =>
    names[path] ?? names[path.split('.')[0] ?? ''] ?? `--${(path.split('.')[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** Commander's parsed options: text, switches, or absent. */
export type Options = Record<string, string | boolean | undefined>;

/** An option's text; a switch or a missing option is undefined. */
export const stringOption = (o: Options, key: string): string | undefined => (typeof o[key] === 'string' ? o[key] : undefined);

/** A flag's text as a number when it is one; otherwise the text, for the operation to refuse with its own words. */
export const num = (value: string | undefined): number | string | undefined =>
  value !== undefined && /^\s*-?\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : value;

/** Validates `raw` for `op`, naming bad fields the way the command line spells them. */
export function cliInput<S extends z.ZodType, R, C>(op: Operation<S, R, C>, raw: unknown, names?: Record<string, string>): z.output<S> {
  try {
    return parseInput(op, raw);
  } catch (err) {
    throw err instanceof InputError ? err.renamed(flagName(names)) : err;
  }
}

/** What an operation may say besides its result: warnings on stderr, and progress unless it is quiet (JSON output, --no-progress). */
function cliContext(store: Store, options: { json?: boolean } = {}): AppContext {
  return {
    store,
    env: process.env,
    warn: (message) => process.stderr.write(`homunculus: ${message}\n`),
    ...(options.json ? {} : { progress: (label: string) => progressBar(label, 1) }),
  };
}

interface RunOptions<R> {
  /** CLI names of fields that are not `--kebab-case` flags. */
  names?: Record<string, string>;
  /** The document --json prints, when it is not the result itself. */
  json?: (result: R) => unknown;
  /** The exit code a result calls for (1 when something asked for was not done). */
  exitCode?: (result: R) => number;
  /** Progress output on stderr (default: yes, unless --json). */
  progress?: boolean;
}

/** Validates the input (before any store is opened), runs the operation, prints its result. */
export async function runOperation<S extends z.ZodType, R>(
  cmd: Command,
  op: Operation<S, R>,
  raw: unknown,
  human: (result: Awaited<R>, store: Store) => string | string[],
  options: RunOptions<Awaited<R>> = {},
): Promise<void> {
  const input = cliInput(op, raw, options.names);
  await withCommandStore(cmd, async (store) => {
    const g = globals(cmd);
    const result = await op.run(cliContext(store, { json: g.json || options.progress === false }), input);
    if (g.json && options.json) emit(g, options.json(result), () => '');
    else emit(g, result, (r) => human(r, store));
    const code = options.exitCode?.(result) ?? 0;
    if (code !== 0) process.exitCode = code;
  });
}

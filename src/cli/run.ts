/** Running an application operation from the command line: flags in, validated once by the operation, text or JSON out. */
import type { Command } from 'commander';
import type { z } from 'zod';
import { type AppContext, InputError, type Operation, parseInput } from '../app/operation.js';
import type { Store } from '../store/store.js';
import { globals, withCommandStore } from './context.js';
import { emit } from './output.js';

/** `minEvidence` -> `--min-evidence`, unless the command names the field otherwise (a positional `<pattern>`). */
export const flagName =
  (names: Record<string, string> = {}) =>
  (path: string): string =>
    names[path] ?? `--${path.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** A flag's text as a number when it is one; otherwise the text, for the operation to refuse with its own words. */
export const num = (value: string | undefined): number | string | undefined =>
  value !== undefined && /^\s*-?\d+(?:\.\d+)?\s*$/.test(value) ? Number(value) : value;

/** Validates `raw` for `op`, naming bad fields the way the command line spells them. */
export function cliInput<S extends z.ZodType, R>(op: Operation<S, R>, raw: unknown, names?: Record<string, string>): z.output<S> {
  try {
    return parseInput(op, raw);
  } catch (err) {
    throw err instanceof InputError ? err.renamed(flagName(names)) : err;
  }
}

export function cliContext(store: Store): AppContext {
  return { store, env: process.env, warn: (message) => process.stderr.write(`homunculus: ${message}\n`) };
}

export interface RunOptions {
  /** CLI names of fields that are not `--kebab-case` flags. */
  names?: Record<string, string>;
}

/** Validates the input (before any store is opened), runs the operation, prints its result. */
export async function runOperation<S extends z.ZodType, R>(
  cmd: Command,
  op: Operation<S, R>,
  raw: unknown,
  human: (result: Awaited<R>, store: Store) => string | string[],
  options: RunOptions = {},
): Promise<void> {
  const input = cliInput(op, raw, options.names);
  await withCommandStore(cmd, async (store) => {
    const result = await op.run(cliContext(store), input);
    emit(globals(cmd), result, (r) => human(r, store));
  });
}

/** Opening the store for a command from its global options. */
import type { Command } from 'commander';
import { type Store, openStore } from '../store/store.js';
import type { GlobalOptions } from './output.js';

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

export async function withCommandStore<T>(cmd: Command, fn: (store: Store, opts: GlobalOptions) => T | Promise<T>): Promise<T> {
  const opts = globals(cmd);
  const store = openStore({ home: opts.home });
  try {
    return await fn(store, opts);
  } finally {
    store.close();
  }
}

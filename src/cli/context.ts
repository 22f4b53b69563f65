/** Opening the store for a command from its global options. */
import type { Command } from 'commander';
import { homePaths, resolveHome } from '../core/paths.js';
import { type Store, explainDatabaseError, openStore } from '../store/store.js';
import type { GlobalOptions } from './output.js';

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

export async function withCommandStore<T>(cmd: Command, fn: (store: Store, opts: GlobalOptions) => T | Promise<T>): Promise<T> {
  const opts = globals(cmd);
  let store: Store;
  try {
    store = openStore({ home: opts.home });
  } catch (err) {
    throw explainDatabaseError(err, homePaths(resolveHome(opts.home)).db) ?? err;
  }
  try {
    return await fn(store, opts);
  } catch (err) {
    throw explainDatabaseError(err, store.paths.db) ?? err;
  } finally {
    store.close();
  }
}

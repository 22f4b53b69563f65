/** Opening the store for a command from its global options. */
import type { Command } from 'commander';
import { homePaths, namedHomeMissing, resolveHome } from '../core/paths.js';
import { type Store, explainDatabaseError, openStore } from '../store/store.js';
import type { GlobalOptions } from './output.js';

export function globals(cmd: Command): GlobalOptions {
  return cmd.optsWithGlobals() as GlobalOptions;
}

/**
 * Commands that only read, or act only on what is stored (delete, forget, embed): named at a home
 * that is not there, they would create an empty store and report on (or find) nothing.
 */
const READERS = new Set([
  // graph's readers
  'facts',
  'entities',
  'timeline',
  'show',
  'communities',
  'list',
  'get',
  'search',
  'stats',
  'status',
  'evolve',
  'export',
  'export-rules',
  'health',
  'changes',
  'telemetry',
  'episodes',
  'chains',
  'duplicates',
  'trending',
  'history',
  'effectiveness',
  'tool-usage',
  'context',
  'query',
  'ask',
  // agent's reader of the store
  'budget',
  // what acts only on what is stored: `memory delete`, `forget`, `embed` (and `embed --status`)
  'delete',
  'forget',
  'embed',
]);

/** A home named explicitly (--home, HOMUNCULUS_HOME) that does not exist, for a command in READERS. */
const missingHome = (cmd: Command, opts: GlobalOptions) => (READERS.has(cmd.name()) ? namedHomeMissing(opts.home) : undefined);

export async function withCommandStore<T>(cmd: Command, fn: (store: Store, opts: GlobalOptions) => T | Promise<T>): Promise<T> {
  const opts = globals(cmd);
  const missing = missingHome(cmd, opts);
  if (missing) throw missing;
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

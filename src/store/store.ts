/** The handle every surface opens: the database, the rendered layout's paths, the clock. */
import { mkdirSync } from 'node:fs';
import { type Clock, systemClock } from '../core/clock.js';
import { type HomePaths, homePaths, resolveHome } from '../core/paths.js';
import { type Db, type OpenOptions, openDatabase } from './db.js';

export interface Store {
  readonly db: Db;
  readonly paths: HomePaths;
  readonly clock: Clock;
  close(): void;
}

export interface StoreOptions extends OpenOptions {
  home?: string;
  clock?: Clock;
}

export function openStore(options: StoreOptions = {}): Store {
  const paths = homePaths(resolveHome(options.home));
  const clock = options.clock ?? systemClock();
  if (!options.readonly) mkdirSync(paths.home, { recursive: true });
  const db = openDatabase(paths.db, options);
  return {
    db,
    paths,
    clock,
    close: () => {
      if (db.open) db.close();
    },
  };
}

/**
 * For tests only (the architecture test keeps production code out): the SQLite handle of a
 * store, to inspect or damage the file the way the outside world could.
 */
import type { Db } from './db.js';
import { type Store, databaseOf } from './store.js';

export function rawDatabase(store: Store): Db {
  return databaseOf(store);
}

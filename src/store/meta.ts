/** The `meta` table: small named values (model fingerprint, generation counters, import state, last GC run). */
import { type Db, cachedStatement } from './db.js';

export interface MetaRepository {
  read(key: string): string | undefined;
  write(key: string, value: string): void;
  remove(key: string): void;
  /** Every key that starts with `prefix`, with its value. */
  prefixed(prefix: string): { key: string; value: string }[];
  /** Moves whenever anything is committed, by this connection or another: SQLite's data_version with our own change count. */
  changeMark(): string;
}

export function createMetaRepository(db: Db): MetaRepository {
  return {
    read: (key) => (cachedStatement(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value,
    write: (key, value) =>
      void cachedStatement(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
        key,
        value,
      ),
    remove: (key) => void cachedStatement(db, 'DELETE FROM meta WHERE key = ?').run(key),
    // A range on the primary key: no LIKE, whose wildcards a prefix could hold.
    prefixed: (prefix) =>
      cachedStatement(db, 'SELECT key, value FROM meta WHERE key >= ? AND key < ? ORDER BY key').all(prefix, `${prefix}\uffff`) as {
        key: string;
        value: string;
      }[],
    changeMark: () =>
      (cachedStatement(db, "SELECT data_version || ':' || total_changes() AS mark FROM pragma_data_version").get() as { mark: string })
        .mark,
  };
}

/** The same reads and writes for store code that holds the handle itself. */
export const readMeta = (db: Db, key: string): string | undefined => createMetaRepository(db).read(key);
export const writeMeta = (db: Db, key: string, value: string): void => createMetaRepository(db).write(key, value);

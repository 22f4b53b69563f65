/** The `meta` table: small named values (model fingerprint, generation counters, import state, last GC run). */
import { type Db, cachedStatement } from './db.js';

export interface MetaRepository {
  read(key: string): string | undefined;
  write(key: string, value: string): void;
}

export function createMetaRepository(db: Db): MetaRepository {
  return {
    read: (key) => (cachedStatement(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value,
    write: (key, value) =>
      void cachedStatement(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(
        key,
        value,
      ),
  };
}

/** The same reads and writes for store code that holds the handle itself. */
export const readMeta = (db: Db, key: string): string | undefined => createMetaRepository(db).read(key);
export const writeMeta = (db: Db, key: string, value: string): void => createMetaRepository(db).write(key, value);

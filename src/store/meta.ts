/** The `meta` table: small named values (model fingerprint, generation counters, import state, last GC run). */
import { type Db, cachedStatement } from './db.js';

export function readMeta(db: Db, key: string): string | undefined {
  return (cachedStatement(db, 'SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}

export function writeMeta(db: Db, key: string, value: string): void {
  cachedStatement(db, 'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(key, value);
}

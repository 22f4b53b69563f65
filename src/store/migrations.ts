/** Versioned migrations, tracked in PRAGMA user_version and a log table. */
import type Database from 'better-sqlite3';
import { HomunculusError } from '../core/errors.js';
import { INSTALL_COMMAND } from '../core/package.js';

export interface Migration {
  version: number;
  name: string;
  up: (db: Database.Database) => void;
}

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

export function migrate(db: Database.Database, migrations: readonly Migration[]): number {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration versions must run 1..n without gaps; found ${m.version} at ${i + 1}`);
  });
  const latest = sorted.length;
  const current = schemaVersion(db);
  if (current > latest) {
    throw new HomunculusError(
      'schema_newer',
      `The database has schema version ${current}, newer than this homunculus understands (${latest}).`,
      { hint: `Upgrade homunculus (${INSTALL_COMMAND}, or git pull and npm ci in a clone) rather than downgrading the store.` },
    );
  }
  if (current === latest) return current;
  const apply = db.transaction(() => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    const now = schemaVersion(db);
    db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
    for (const m of sorted) {
      if (m.version <= now) continue;
      m.up(db);
      db.prepare('INSERT OR REPLACE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version,
        m.name,
        new Date().toISOString(),
      );
      db.pragma(`user_version = ${m.version}`);
    }
  });
  apply.immediate();
  return schemaVersion(db);
}

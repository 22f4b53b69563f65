/** identity: session_count, last_session, promotion timestamps, cluster flags. */
import { type Db, cachedStatement } from './db.js';

interface Identity {
  session_count: number;
  last_session: string | null;
  promotions: string[];
  [key: string]: unknown;
}

export interface IdentityRepository {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  /** Counts one more session, atomically (concurrent stops never lose a count); returns the new count. */
  countSession(lastSession: string): number;
  read(): Identity;
}

export function createIdentityRepository(db: Db): IdentityRepository {
  const set = (key: string, value: string): void =>
    void cachedStatement(db, 'INSERT INTO identity (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
      key,
      value,
    );
  return {
    get: (key) => (cachedStatement(db, 'SELECT value FROM identity WHERE key = ?').get(key) as { value: string } | undefined)?.value,
    set,
    countSession(lastSession) {
      const row = db
        .prepare(
          `INSERT INTO identity (key, value) VALUES ('session_count', '1')
           ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
           RETURNING value`,
        )
        .get() as { value: string };
      set('last_session', lastSession);
      return Number(row.value);
    },
    read() {
      const rows = db.prepare('SELECT key, value FROM identity ORDER BY key').all() as { key: string; value: string }[];
      const identity: Identity = { session_count: 0, last_session: null, promotions: [] };
      for (const { key, value } of rows) {
        if (key === 'session_count') identity.session_count = Number(value) || 0;
        else if (key === 'last_session') identity.last_session = value;
        else {
          try {
            identity[key] = JSON.parse(value);
          } catch {
            identity[key] = value;
          }
        }
      }
      return identity;
    },
  };
}

/** identity: session_count, last_session, promotion timestamps, cluster flags (seed 000). */
import type { Db } from './db.js';

export function getIdentityValue(db: Db, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM identity WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function setIdentityValue(db: Db, key: string, value: string): void {
  db.prepare('INSERT INTO identity (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

/** Atomic increment: concurrent stops never lose a count. */
export function incrementSessionCount(db: Db, lastSession: string): number {
  const row = db
    .prepare(
      `INSERT INTO identity (key, value) VALUES ('session_count', '1')
       ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
       RETURNING value`,
    )
    .get() as { value: string };
  setIdentityValue(db, 'last_session', lastSession);
  return Number(row.value);
}

export interface Identity {
  session_count: number;
  last_session: string | null;
  promotions: string[];
  [key: string]: unknown;
}

export function readIdentity(db: Db): Identity {
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
}

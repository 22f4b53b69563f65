/**
 * Migration 9: corrections by hand (issue 16). The instinct event log learns three kinds,
 * 'edit' (a trigger or action rewritten, the old text kept in the event), 'forget' and
 * 'unpromote', and it outlives a forgotten instinct: an event's instinct_id becomes nullable
 * and `pattern` holds the key of the instinct it was about once that row is gone. SQLite
 * changes a CHECK only by rebuilding the table, so the log is copied row for row (ids kept).
 * Self-contained: only this table changes, so the version number can move when branches merge.
 */
import type { Migration } from './migrations.js';

export const EVENT_KINDS = [
  'create',
  'reinforce',
  'decay',
  'feedback',
  'contradiction',
  'import',
  'alias',
  'promote',
  'raise',
  'edit',
  'forget',
  'unpromote',
] as const;

const kinds = EVENT_KINDS.map((k) => `'${k}'`).join(', ');

export const correctionsMigration: Migration = {
  version: 9,
  name: 'instinct corrections: edit, forget and unpromote events; the log of a forgotten instinct is kept',
  up(db) {
    db.exec(`
      CREATE TABLE instinct_events_next (
        id INTEGER PRIMARY KEY,
        -- NULL once the instinct was forgotten: its events stay, under its key.
        instinct_id INTEGER REFERENCES instincts(id) ON DELETE CASCADE,
        ts TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN (${kinds})),
        delta_evidence INTEGER NOT NULL DEFAULT 0,
        delta_confidence REAL NOT NULL DEFAULT 0,
        source TEXT NOT NULL DEFAULT '',
        project TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT '',
        -- The key of a forgotten instinct (set when its row goes); '' while the instinct exists.
        pattern TEXT NOT NULL DEFAULT ''
      );
      INSERT INTO instinct_events_next (id, instinct_id, ts, kind, delta_evidence, delta_confidence, source, project, detail)
        SELECT id, instinct_id, ts, kind, delta_evidence, delta_confidence, source, project, detail FROM instinct_events;
      DROP TABLE instinct_events;
      ALTER TABLE instinct_events_next RENAME TO instinct_events;
      CREATE INDEX instinct_events_instinct_ts ON instinct_events(instinct_id, ts);
      CREATE INDEX instinct_events_ts ON instinct_events(ts);
      CREATE INDEX instinct_events_forgotten ON instinct_events(pattern, ts) WHERE instinct_id IS NULL;
    `);
  },
};

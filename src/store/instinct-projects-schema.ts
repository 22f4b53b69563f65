/**
 * Migration 16: an index of the projects an instinct was observed in, from its events. An
 * instinct filed under the project where it first reached its threshold is shown in every
 * project whose sessions showed it too (a lint fix seen in two checkouts of one repository).
 */
import type { Migration } from './migrations.js';

export const instinctProjectsMigration: Migration = {
  version: 16,
  name: 'instinct events indexed by project',
  up(db) {
    db.exec('CREATE INDEX IF NOT EXISTS instinct_events_project ON instinct_events(project, instinct_id)');
  },
};

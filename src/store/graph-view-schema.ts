/**
 * The graph view's index: the dashboard draws every fact the graph held at a date, which
 * scans the whole table. Fact rows are wide (description, history, metadata, a vector), so
 * the scan reads this narrow covering index instead, and the first and last recording
 * instants (the date slider's range) come from its first column in one step each.
 */
import type { Migration } from './migrations.js';

export const graphViewMigration: Migration = {
  version: 10,
  name: 'graph view: covering index over the columns a drawn fact needs',
  up(db) {
    db.exec(`
      CREATE INDEX graph_facts_view ON graph_facts(created_at, expired_at, valid_at, invalid_at,
        source_id, target_id, relation, memory_type, confidence, emotional_weight);
    `);
  },
};

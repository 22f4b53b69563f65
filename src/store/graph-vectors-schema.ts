/**
 * Migration 7: a generation counter for the graph's fact vectors, bumped whenever a fact's
 * vector changes or a fact goes, so a process can keep the vectors it read (the graph's
 * search caches them per connection) and reread them only after a writer changed them (as
 * vector_generation does for documents).
 */
import type { Migration } from './migrations.js';

const BUMP = "UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'graph_vector_generation';";

export const graphVectorsMigration: Migration = {
  version: 7,
  name: 'graph fact vector generation',
  up(db) {
    db.exec(`
      INSERT OR IGNORE INTO meta (key, value) VALUES ('graph_vector_generation', '0');
      CREATE TRIGGER graph_facts_vector_au AFTER UPDATE OF embedding, embedding_model ON graph_facts BEGIN ${BUMP} END;
      CREATE TRIGGER graph_facts_vector_ad AFTER DELETE ON graph_facts BEGIN ${BUMP} END;
    `);
  },
};

/**
 * Migration 17: documents in time order within a collection and project. Storing a memory
 * reads the newest memories before and after its time (search/supersede.ts); without this
 * index each read sorted the whole collection, so importing 3,000 memories spent most of its
 * time there and held the write lock meanwhile.
 */
import type { Migration } from './migrations.js';

export const documentsTimeMigration: Migration = {
  version: 17,
  name: 'documents indexed by time',
  up(db) {
    db.exec('CREATE INDEX IF NOT EXISTS documents_time ON documents(collection, project, COALESCE(ts, created_at), id)');
  },
};

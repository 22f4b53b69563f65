/**
 * Migration 6: who said a document. Conversational memories (a chat turn, a message)
 * have an author; a query that names one of them is about what that person said
 * (search/speakers.ts). The partial index answers "is this word an author?" per query word.
 */
import type { Migration } from './migrations.js';

export const speakersMigration: Migration = {
  version: 6,
  name: 'document speakers',
  up(db) {
    db.exec(`
      ALTER TABLE documents ADD COLUMN speaker TEXT;
      CREATE INDEX documents_speaker ON documents(speaker COLLATE NOCASE) WHERE speaker IS NOT NULL;
    `);
  },
};

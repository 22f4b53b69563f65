/**
 * Migration 15: what a user said in a session (a correction, a preference, a decision the
 * graph took from a prompt) belongs to that session's project. Such facts were stored
 * without a project, so a remark made in one repository ("no, revert those changes") was
 * shown in every other. Facts whose session is unknown stay as they are.
 */
import type { Migration } from './migrations.js';

export const signalScopeMigration: Migration = {
  version: 15,
  name: "user signals in the graph scoped to their session's project",
  up(db) {
    db.exec(`
      UPDATE graph_facts
      SET project = (SELECT s.project FROM sessions s WHERE s.id = graph_facts.source_session)
      WHERE project = ''
        AND json_extract(metadata, '$.signal') IS NOT NULL
        AND (SELECT s.project FROM sessions s WHERE s.id = graph_facts.source_session) != '';
    `);
  },
};

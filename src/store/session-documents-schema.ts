/**
 * A session's search document held its files as the raw JSON array, so a session that
 * touched none read "Added the login page. []" wherever it was quoted (the memory chat's
 * sources). Its text is now the summary and then the files as plain words.
 */
import type { Migration } from './migrations.js';

/** The document text of a session row `r` (an alias: `new` in triggers, the table elsewhere). */
const text = (r: string) =>
  `trim(${r}summary || char(10) || CASE WHEN json_valid(${r}files_touched) THEN coalesce((SELECT group_concat(value, ' ') FROM json_each(${r}files_touched)), '') ELSE ${r}files_touched END, char(32, 9, 10, 13))`;

export const sessionDocumentsMigration: Migration = {
  version: 11,
  name: 'session documents: files as words, not a JSON array',
  up(db) {
    db.exec(`
      DROP TRIGGER sessions_doc_ai;
      DROP TRIGGER sessions_doc_au;
      CREATE TRIGGER sessions_doc_ai AFTER INSERT ON sessions BEGIN
        INSERT INTO documents (collection, ext_id, title, text, ts, project, metadata, created_at, updated_at)
        VALUES ('sessions', new.id, new.project_name, ${text('new.')},
          coalesce(new.ended_at, new.started_at), new.project,
          json_object('cwd', new.cwd, 'tools_used', CASE WHEN json_valid(new.tools_used) THEN json(new.tools_used) ELSE new.tools_used END),
          coalesce(new.started_at, ''), coalesce(new.ended_at, new.started_at, ''))
        ON CONFLICT (collection, ext_id) DO NOTHING;
      END;
      CREATE TRIGGER sessions_doc_au AFTER UPDATE ON sessions BEGIN
        UPDATE documents SET ext_id = new.id, title = new.project_name, text = ${text('new.')},
          ts = coalesce(new.ended_at, new.started_at), project = new.project,
          metadata = json_object('cwd', new.cwd, 'tools_used', CASE WHEN json_valid(new.tools_used) THEN json(new.tools_used) ELSE new.tools_used END),
          updated_at = coalesce(new.ended_at, new.started_at, '')
        WHERE collection = 'sessions' AND ext_id = old.id;
      END;
      UPDATE documents SET text = (SELECT ${text('s.')} FROM sessions s WHERE s.id = documents.ext_id)
        WHERE collection = 'sessions' AND ext_id IN (SELECT id FROM sessions);
    `);
  },
};

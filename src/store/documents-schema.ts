/**
 * Migration 5: the searchable documents of every collection, their full-text indexes
 * (porter words and trigrams), their embeddings, and triggers that keep instincts,
 * sessions and episodes indexed whichever code path writes them.
 */
import type { Migration } from './migrations.js';

/**
 * Only text with CJK characters or code-like tokens enters the trigram index: that is all
 * the trigram list serves (text/trigram.ts), and trigram indexing of plain prose
 * costs more than the word index. Bulk writers set documents.trigram themselves (a JS
 * regex is far cheaper than these GLOBs); rows written by the mirror triggers leave it
 * NULL and the GLOBs decide (COALESCE short-circuits, so a set flag skips them). The
 * trigram table is contentless with deletes by rowid, so removing a row never needs to
 * know whether it was indexed.
 */
const NEW_TRIGRAM = (() => {
  const x = `(new.title || ' ' || new.text)`;
  const shapes = [
    `instr(${x}, '_') > 0`,
    `length(${x}) != length(CAST(${x} AS BLOB))`,
    `${x} GLOB '*[a-z][A-Z]*'`,
    `${x} GLOB '*[a-zA-Z0-9][./][a-zA-Z]*'`,
    `(${x} GLOB '*[0-9]*' AND (${x} GLOB '*[a-zA-Z][0-9]*' OR ${x} GLOB '*[0-9][a-zA-Z]*'))`,
  ];
  return `coalesce(new.trigram, ${shapes.join(' OR ')})`;
})();

const DOCUMENTS_SQL = `
  CREATE TABLE documents (
    id INTEGER PRIMARY KEY,
    collection TEXT NOT NULL,
    ext_id TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    text TEXT NOT NULL,
    ts TEXT,
    project TEXT NOT NULL DEFAULT '',
    thread TEXT,
    seq INTEGER,
    metadata TEXT NOT NULL DEFAULT '{}',
    confidence REAL CHECK (confidence IS NULL OR confidence BETWEEN 0 AND 1),
    activation REAL,
    -- 1 when the text goes to the trigram index too (NULL: decided by the trigger).
    trigram INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (collection, ext_id)
  );
  CREATE INDEX documents_thread ON documents(collection, project, thread, seq) WHERE thread IS NOT NULL;

  CREATE VIRTUAL TABLE documents_fts USING fts5(
    title, text, content='documents', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2'
  );
  CREATE VIRTUAL TABLE documents_trigram USING fts5(
    title, text, content='', contentless_delete=1, tokenize='trigram'
  );
  CREATE TRIGGER documents_ai AFTER INSERT ON documents BEGIN
    INSERT INTO documents_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
    INSERT INTO documents_trigram(rowid, title, text) SELECT new.id, new.title, new.text WHERE ${NEW_TRIGRAM};
  END;
  CREATE TRIGGER documents_ad AFTER DELETE ON documents BEGIN
    INSERT INTO documents_fts(documents_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    DELETE FROM documents_trigram WHERE rowid = old.id;
  END;
  CREATE TRIGGER documents_au AFTER UPDATE OF title, text ON documents
  WHEN old.title IS NOT new.title OR old.text IS NOT new.text BEGIN
    INSERT INTO documents_fts(documents_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
    DELETE FROM documents_trigram WHERE rowid = old.id;
    INSERT INTO documents_fts(rowid, title, text) VALUES (new.id, new.title, new.text);
    INSERT INTO documents_trigram(rowid, title, text) SELECT new.id, new.title, new.text WHERE ${NEW_TRIGRAM};
    -- A changed text makes its embedding stale: drop it so lazy repair re-embeds it.
    DELETE FROM document_vectors WHERE doc_id = new.id;
  END;

  -- One row per embedded document. fingerprint = provider/model/dims that produced it;
  -- queries only use rows of the current fingerprint, so two models never mix.
  -- code = sign bits of the vector (the in-memory hamming prefilter reads only these).
  CREATE TABLE document_vectors (
    doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    code BLOB NOT NULL,
    vector BLOB NOT NULL
  );
  CREATE INDEX document_vectors_codes ON document_vectors(fingerprint, doc_id, code);

  -- A counter every vector change bumps, so an in-memory vector index knows when to reload.
  INSERT OR IGNORE INTO meta (key, value) VALUES ('vector_generation', '0');
  CREATE TRIGGER document_vectors_ai AFTER INSERT ON document_vectors BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vector_generation';
  END;
  CREATE TRIGGER document_vectors_ad AFTER DELETE ON document_vectors BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vector_generation';
  END;
  CREATE TRIGGER document_vectors_au AFTER UPDATE ON document_vectors BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'vector_generation';
  END;
`;

/** Instincts, sessions and episodes mirror themselves into documents. */
const MIRROR_SQL = `
  CREATE TRIGGER instincts_doc_ai AFTER INSERT ON instincts BEGIN
    INSERT INTO documents (collection, ext_id, title, text, ts, project, metadata, confidence, created_at, updated_at)
    VALUES ('instincts', new.key, new.key, trim(new.trigger || char(10) || new.action || CASE WHEN new.explain != new.action THEN char(10) || new.explain ELSE '' END, char(32, 9, 10, 13)),
      new.last_seen, new.project,
      json_object('category', new.category, 'domain', new.domain, 'evidence', new.evidence),
      new.confidence, new.first_seen, new.last_seen)
    ON CONFLICT (collection, ext_id) DO UPDATE SET title = excluded.title, text = excluded.text, ts = excluded.ts,
      project = excluded.project, metadata = excluded.metadata, confidence = excluded.confidence, updated_at = excluded.updated_at;
  END;
  CREATE TRIGGER instincts_doc_au AFTER UPDATE ON instincts BEGIN
    UPDATE documents SET ext_id = new.key, title = new.key,
      text = trim(new.trigger || char(10) || new.action || CASE WHEN new.explain != new.action THEN char(10) || new.explain ELSE '' END, char(32, 9, 10, 13)),
      ts = new.last_seen, project = new.project,
      metadata = json_object('category', new.category, 'domain', new.domain, 'evidence', new.evidence),
      confidence = new.confidence, updated_at = new.last_seen
    WHERE collection = 'instincts' AND ext_id = old.key;
  END;
  CREATE TRIGGER instincts_doc_ad AFTER DELETE ON instincts BEGIN
    DELETE FROM documents WHERE collection = 'instincts' AND ext_id = old.key;
  END;

  CREATE TRIGGER sessions_doc_ai AFTER INSERT ON sessions BEGIN
    INSERT INTO documents (collection, ext_id, title, text, ts, project, metadata, created_at, updated_at)
    VALUES ('sessions', new.id, new.project_name, trim(new.summary || char(10) || new.files_touched, char(32, 9, 10, 13)),
      coalesce(new.ended_at, new.started_at), new.project,
      json_object('cwd', new.cwd, 'tools_used', CASE WHEN json_valid(new.tools_used) THEN json(new.tools_used) ELSE new.tools_used END),
      coalesce(new.started_at, ''), coalesce(new.ended_at, new.started_at, ''))
    ON CONFLICT (collection, ext_id) DO NOTHING;
  END;
  CREATE TRIGGER sessions_doc_au AFTER UPDATE ON sessions BEGIN
    UPDATE documents SET ext_id = new.id, title = new.project_name, text = trim(new.summary || char(10) || new.files_touched, char(32, 9, 10, 13)),
      ts = coalesce(new.ended_at, new.started_at), project = new.project,
      metadata = json_object('cwd', new.cwd, 'tools_used', CASE WHEN json_valid(new.tools_used) THEN json(new.tools_used) ELSE new.tools_used END),
      updated_at = coalesce(new.ended_at, new.started_at, '')
    WHERE collection = 'sessions' AND ext_id = old.id;
  END;
  CREATE TRIGGER sessions_doc_ad AFTER DELETE ON sessions BEGIN
    DELETE FROM documents WHERE collection = 'sessions' AND ext_id = old.id;
  END;

  CREATE TRIGGER episodes_doc_ai AFTER INSERT ON episodes BEGIN
    INSERT INTO documents (collection, ext_id, title, text, ts, project, metadata, created_at, updated_at)
    VALUES ('episodes', CAST(new.id AS TEXT), new.title, trim(new.body || char(10) || new.files, char(32, 9, 10, 13)), new.date, new.project,
      json_object('pattern', new.pattern, 'tags', CASE WHEN json_valid(new.tags) THEN json(new.tags) ELSE new.tags END, 'occurrences', new.occurrences),
      new.date, new.updated_at)
    ON CONFLICT (collection, ext_id) DO NOTHING;
  END;
  CREATE TRIGGER episodes_doc_au AFTER UPDATE ON episodes BEGIN
    UPDATE documents SET title = new.title, text = trim(new.body || char(10) || new.files, char(32, 9, 10, 13)), ts = new.date, project = new.project,
      metadata = json_object('pattern', new.pattern, 'tags', CASE WHEN json_valid(new.tags) THEN json(new.tags) ELSE new.tags END, 'occurrences', new.occurrences),
      updated_at = new.updated_at
    WHERE collection = 'episodes' AND ext_id = CAST(old.id AS TEXT);
  END;
  CREATE TRIGGER episodes_doc_ad AFTER DELETE ON episodes BEGIN
    DELETE FROM documents WHERE collection = 'episodes' AND ext_id = CAST(old.id AS TEXT);
  END;
`;

/** Records that existed before this migration become documents too. */
const BACKFILL_SQL = `
  INSERT INTO documents (collection, ext_id, title, text, ts, project, metadata, confidence, created_at, updated_at)
  SELECT 'instincts', key, key, trim(trigger || char(10) || action || CASE WHEN explain != action THEN char(10) || explain ELSE '' END, char(32, 9, 10, 13)), last_seen, project,
    json_object('category', category, 'domain', domain, 'evidence', evidence), confidence, first_seen, last_seen
  FROM instincts;
  INSERT INTO documents (collection, ext_id, title, text, ts, project, metadata, created_at, updated_at)
  SELECT 'sessions', id, project_name, trim(summary || char(10) || files_touched, char(32, 9, 10, 13)), coalesce(ended_at, started_at), project,
    json_object('cwd', cwd, 'tools_used', CASE WHEN json_valid(tools_used) THEN json(tools_used) ELSE tools_used END), coalesce(started_at, ''), coalesce(ended_at, started_at, '')
  FROM sessions;
  INSERT INTO documents (collection, ext_id, title, text, ts, project, metadata, created_at, updated_at)
  SELECT 'episodes', CAST(id AS TEXT), title, trim(body || char(10) || files, char(32, 9, 10, 13)), date, project,
    json_object('pattern', pattern, 'tags', CASE WHEN json_valid(tags) THEN json(tags) ELSE tags END, 'occurrences', occurrences), date, updated_at
  FROM episodes;
`;

export const documentsMigration: Migration = {
  // Version 3 on its branch; after the learning (3) and graph (4) migrations on main. It only
  // adds tables and triggers, so the number can move again when branches merge.
  version: 5,
  name: 'documents, full-text and trigram indexes, embeddings, mirrors of instincts/sessions/episodes',
  up(db) {
    db.exec(DOCUMENTS_SQL);
    db.exec(MIRROR_SQL);
    db.exec(BACKFILL_SQL);
  },
};

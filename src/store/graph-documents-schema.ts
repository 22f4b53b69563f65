/**
 * Migration 8: the knowledge graph joins the one search index. Every fact is a document of
 * the `facts` collection and every entity one of `entities`, kept in step by triggers
 * whichever code path writes them, so full-text lists and vectors (one embedding model for
 * everything) serve the graph too. The graph's own full-text index, its vector columns and
 * their generation counter go.
 *
 * A fact's document: text = "source <relation label> target: description" (what its vector
 * is computed from), ts = valid_at, the fact's project and confidence, and its relation,
 * memory type and bi-temporal instants in metadata (superseded_by as the successor's
 * document id). Its row id is minus the fact's id. Searches narrow it by the fact itself
 * (documents/scopes.ts), so the bi-temporal filters stay the graph table's.
 *
 * The labels are written into the triggers: changing one needs a migration that recreates
 * them and rewrites the texts.
 */
import { ENTITIES_COLLECTION, FACTS_COLLECTION, RELATION_LABELS } from '../core/graph-vocabulary.js';
import type { Migration } from './migrations.js';

const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

const label = (relation: string): string =>
  `CASE ${relation} ${Object.entries(RELATION_LABELS)
    .map(([r, l]) => `WHEN ${quote(r)} THEN ${quote(l)}`)
    .join(' ')} ELSE replace(${relation}, '_', ' ') END`;

const entityName = (id: string): string => `(SELECT name FROM graph_entities WHERE id = ${id})`;

/** The document columns of fact row `f` (`new` in a trigger, a table alias in the back-fill). */
const factText = (f: string): string =>
  `${entityName(`${f}.source_id`)} || ' ' || ${label(`${f}.relation`)} || ' ' || ${entityName(`${f}.target_id`)} || ': ' || ${f}.description`;

const factMetadata = (f: string): string =>
  `json_object('source', ${entityName(`${f}.source_id`)}, 'relation', ${f}.relation, 'target', ${entityName(`${f}.target_id`)},
    'memory_type', ${f}.memory_type, 'valid_at', ${f}.valid_at, 'invalid_at', ${f}.invalid_at, 'expired_at', ${f}.expired_at,
    'expired_reason', ${f}.expired_reason, 'superseded_by', CAST(${f}.superseded_by AS TEXT))`;

/** A fact's document takes the row id minus the fact's id (documents/scopes.ts says why). */
const INSERT_FACT = (f: string): string =>
  `INSERT INTO documents (id, collection, ext_id, title, text, ts, project, metadata, confidence, created_at, updated_at)
   SELECT -${f}.id, ${quote(FACTS_COLLECTION)}, CAST(${f}.id AS TEXT), '', ${factText(f)}, ${f}.valid_at, ${f}.project, ${factMetadata(f)},
     ${f}.confidence, ${f}.created_at, coalesce(${f}.expired_at, ${f}.created_at)`;

const entityText = (e: string): string => `${e}.name || ' (' || replace(${e}.type, '_', ' ') || ')'`;

const INSERT_ENTITY = (e: string): string =>
  `INSERT INTO documents (collection, ext_id, title, text, ts, project, metadata, created_at, updated_at)
   SELECT ${quote(ENTITIES_COLLECTION)}, CAST(${e}.id AS TEXT), '', ${entityText(e)}, ${e}.created_at, '', json_object('type', ${e}.type),
     ${e}.created_at, ${e}.created_at`;

const TRIGGERS = `
  CREATE TRIGGER graph_facts_doc_ai AFTER INSERT ON graph_facts BEGIN
    ${INSERT_FACT('new')};
  END;
  -- A changed text re-indexes the document and drops its vector (documents_au); closing a fact changes only its metadata.
  CREATE TRIGGER graph_facts_doc_au AFTER UPDATE ON graph_facts BEGIN
    UPDATE documents SET text = ${factText('new')}, ts = new.valid_at, project = new.project, metadata = ${factMetadata('new')},
      confidence = new.confidence, updated_at = coalesce(new.expired_at, updated_at)
    WHERE id = -new.id;
  END;
  CREATE TRIGGER graph_facts_doc_ad AFTER DELETE ON graph_facts BEGIN
    DELETE FROM documents WHERE id = -old.id;
  END;

  CREATE TRIGGER graph_entities_doc_ai AFTER INSERT ON graph_entities BEGIN
    ${INSERT_ENTITY('new')};
  END;
  CREATE TRIGGER graph_entities_doc_au AFTER UPDATE OF name, type ON graph_entities
  WHEN old.name IS NOT new.name OR old.type IS NOT new.type BEGIN
    UPDATE documents SET text = ${entityText('new')}, metadata = json_object('type', new.type)
    WHERE collection = ${quote(ENTITIES_COLLECTION)} AND ext_id = CAST(new.id AS TEXT);
    UPDATE documents SET text = (SELECT ${factText('f')} FROM graph_facts f WHERE f.id = -documents.id)
    WHERE id IN (SELECT -id FROM graph_facts WHERE source_id = new.id OR target_id = new.id);
  END;
  CREATE TRIGGER graph_entities_doc_ad AFTER DELETE ON graph_entities BEGIN
    DELETE FROM documents WHERE collection = ${quote(ENTITIES_COLLECTION)} AND ext_id = CAST(old.id AS TEXT);
  END;
`;

/**
 * Documents someone stored under these names before they became mirrors move aside (ids
 * kept), then every fact and entity is indexed.
 */
const BACKFILL = `
  UPDATE documents SET collection = 'memories-' || collection WHERE collection IN (${quote(FACTS_COLLECTION)}, ${quote(ENTITIES_COLLECTION)});
  ${INSERT_ENTITY('e')} FROM graph_entities e ORDER BY e.id;
  ${INSERT_FACT('f')} FROM graph_facts f ORDER BY f.id;
`;

/** What nothing reads any more: the facts' own full-text index, the graph's vectors and their generation counter. */
const DROP = `
  DROP TRIGGER graph_facts_fts_insert;
  DROP TRIGGER graph_facts_fts_update;
  DROP TABLE graph_facts_fts;
  DROP TRIGGER graph_facts_vector_au;
  DROP TRIGGER graph_facts_vector_ad;
  DELETE FROM meta WHERE key = 'graph_vector_generation';
  DROP INDEX graph_facts_embedding_model;
  DROP INDEX graph_entities_embedding_model;
  ALTER TABLE graph_facts DROP COLUMN embedding;
  ALTER TABLE graph_facts DROP COLUMN embedding_model;
  ALTER TABLE graph_entities DROP COLUMN embedding;
  ALTER TABLE graph_entities DROP COLUMN embedding_model;
`;

export const graphDocumentsMigration: Migration = {
  version: 8,
  name: 'graph facts and entities as documents of the search index; the graph full-text index and vectors dropped',
  up(db) {
    db.exec(DROP);
    db.exec(BACKFILL);
    db.exec(TRIGGERS);
  },
};

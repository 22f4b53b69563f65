/**
 * The knowledge graph (Graphiti-style): entities, bi-temporal facts, the ACT-R
 * access log, episode references and communities, plus a full-text index over facts.
 *
 * Bi-temporal facts: valid_at / invalid_at say when a fact was true in the world;
 * created_at / expired_at say when the graph held it. Superseding closes both and links
 * the replacement through superseded_by; nothing is deleted.
 */
import type { Migration } from './migrations.js';

export const graphMigration: Migration = {
  // Version 3 on this branch; renumbered when merged after the retrieval and learning migrations.
  version: 4,
  name: 'knowledge graph: entities, bi-temporal facts, access log, episodes, communities, facts FTS',
  up(db) {
    db.exec(`
      CREATE TABLE graph_entities (
        id INTEGER PRIMARY KEY,
        type TEXT NOT NULL CHECK (type IN ('project', 'tool', 'error_pattern', 'preference', 'concept', 'person', 'file', 'library', 'pattern', 'decision')),
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        properties TEXT NOT NULL DEFAULT '{}',
        embedding BLOB,
        embedding_model TEXT,
        created_at TEXT NOT NULL,
        last_seen TEXT NOT NULL
      );
      CREATE INDEX graph_entities_type ON graph_entities(type);
      CREATE INDEX graph_entities_embedding_model ON graph_entities(embedding_model);

      CREATE TABLE graph_facts (
        id INTEGER PRIMARY KEY,
        source_id INTEGER NOT NULL REFERENCES graph_entities(id),
        target_id INTEGER NOT NULL REFERENCES graph_entities(id),
        relation TEXT NOT NULL,
        category TEXT NOT NULL,
        description TEXT NOT NULL,
        memory_type TEXT NOT NULL CHECK (memory_type IN ('episodic', 'semantic', 'procedural')),
        confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        valid_at TEXT NOT NULL,
        invalid_at TEXT,
        created_at TEXT NOT NULL,
        expired_at TEXT,
        superseded_by INTEGER REFERENCES graph_facts(id),
        expired_reason TEXT CHECK (expired_reason IN ('superseded', 'contradicted', 'duplicate', 'decayed', 'retracted')),
        emotional_weight REAL NOT NULL DEFAULT 1 CHECK (emotional_weight >= 1),
        reconsolidation_count INTEGER NOT NULL DEFAULT 0,
        history TEXT NOT NULL DEFAULT '[]',
        project TEXT NOT NULL DEFAULT '',
        source_session TEXT NOT NULL DEFAULT '',
        origin TEXT NOT NULL DEFAULT 'manual' CHECK (origin IN ('manual', 'deterministic', 'llm', 'dream')),
        metadata TEXT NOT NULL DEFAULT '{}',
        embedding BLOB,
        embedding_model TEXT
      );
      CREATE INDEX graph_facts_source ON graph_facts(source_id, relation);
      CREATE INDEX graph_facts_target ON graph_facts(target_id);
      -- Finds what still needs a vector of the current model without scanning every fact.
      CREATE INDEX graph_facts_embedding_model ON graph_facts(embedding_model);

      -- ACT-R: one row per access (creation, retrieval, re-assertion).
      CREATE TABLE graph_fact_access (
        fact_id INTEGER NOT NULL REFERENCES graph_facts(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('create', 'retrieval', 'reinforce'))
      );
      CREATE INDEX graph_fact_access_fact ON graph_fact_access(fact_id, at);

      CREATE TABLE graph_episodes (
        id INTEGER PRIMARY KEY,
        source_type TEXT NOT NULL DEFAULT 'session',
        source_ref TEXT NOT NULL,
        project TEXT NOT NULL DEFAULT '',
        timestamp TEXT NOT NULL,
        summary TEXT NOT NULL DEFAULT '',
        consolidated_at TEXT,
        UNIQUE (source_type, source_ref)
      );
      CREATE INDEX graph_episodes_pending ON graph_episodes(consolidated_at, timestamp);
      CREATE TABLE graph_episode_entities (
        episode_id INTEGER NOT NULL REFERENCES graph_episodes(id) ON DELETE CASCADE,
        entity_id INTEGER NOT NULL REFERENCES graph_entities(id),
        PRIMARY KEY (episode_id, entity_id)
      ) WITHOUT ROWID;
      CREATE TABLE graph_episode_facts (
        episode_id INTEGER NOT NULL REFERENCES graph_episodes(id) ON DELETE CASCADE,
        fact_id INTEGER NOT NULL REFERENCES graph_facts(id),
        PRIMARY KEY (episode_id, fact_id)
      ) WITHOUT ROWID;

      CREATE TABLE graph_communities (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        hub_id INTEGER REFERENCES graph_entities(id),
        entities TEXT NOT NULL DEFAULT '[]',
        facts TEXT NOT NULL DEFAULT '[]',
        summary TEXT NOT NULL DEFAULT '',
        updated_at TEXT NOT NULL
      );

      -- BM25 over what a fact says, the names it connects and its relation (seed boosts 2 / 1.5 / 1).
      CREATE VIRTUAL TABLE graph_facts_fts USING fts5(description, entities, relation, tokenize='porter unicode61');
      CREATE TRIGGER graph_facts_fts_insert AFTER INSERT ON graph_facts BEGIN
        INSERT INTO graph_facts_fts(rowid, description, entities, relation) VALUES (
          new.id, new.description,
          (SELECT group_concat(name, ' ') FROM graph_entities WHERE id IN (new.source_id, new.target_id)),
          replace(new.relation, '_', ' '));
      END;
      CREATE TRIGGER graph_facts_fts_update AFTER UPDATE OF description ON graph_facts BEGIN
        UPDATE graph_facts_fts SET description = new.description WHERE rowid = new.id;
      END;
    `);
  },
};

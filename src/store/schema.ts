/**
 * The schema, one migration per step. Later capabilities append their own migration;
 * never edit one that has shipped.
 */
import { learningMigration } from './learning-schema.js';
import { graphMigration } from './graph-schema.js';
import { graphViewMigration } from './graph-view-schema.js';
import { sessionDocumentsMigration } from './session-documents-schema.js';
import { documentsMigration } from './documents-schema.js';
import { speakersMigration } from './speakers-schema.js';
import { graphVectorsMigration } from './graph-vectors-schema.js';
import { graphDocumentsMigration } from './graph-documents-schema.js';
import { correctionsMigration } from './corrections-schema.js';
import { agentMigration } from './agent-schema.js';
import { scheduleMigration } from './schedule-schema.js';
import { conversationsMigration } from './agent-conversations-schema.js';
import { signalScopeMigration } from './signal-scope-schema.js';
import { instinctProjectsMigration } from './instinct-projects-schema.js';
import { documentsTimeMigration } from './documents-time-schema.js';
import { serviceTriggersMigration } from './service-triggers-schema.js';
import type { Migration } from './migrations.js';

const coreRecords: Migration = {
  version: 1,
  name: 'core records: observations, sessions, instincts, events, aliases, identity',
  up(db) {
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        source TEXT NOT NULL DEFAULT 'claude-code',
        project TEXT NOT NULL DEFAULT '',
        project_name TEXT NOT NULL DEFAULT '',
        cwd TEXT NOT NULL DEFAULT '',
        started_at TEXT,
        ended_at TEXT,
        tools_used TEXT NOT NULL DEFAULT '[]',
        tool_counts TEXT NOT NULL DEFAULT '{}',
        files_touched TEXT NOT NULL DEFAULT '[]',
        summary TEXT NOT NULL DEFAULT '',
        continues_from TEXT,
        transcript_path TEXT,
        file_name TEXT
      );
      CREATE INDEX sessions_project_ended ON sessions(project, ended_at);

      CREATE TABLE observations (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        session_id TEXT NOT NULL,
        tool_use_id TEXT NOT NULL,
        ts TEXT NOT NULL,
        event TEXT NOT NULL DEFAULT 'tool',
        project TEXT NOT NULL DEFAULT '',
        cwd TEXT NOT NULL DEFAULT '',
        tool TEXT NOT NULL DEFAULT '',
        intent TEXT NOT NULL DEFAULT '',
        input TEXT NOT NULL DEFAULT '',
        files TEXT NOT NULL DEFAULT '[]',
        outcome TEXT NOT NULL DEFAULT 'ok' CHECK (outcome IN ('ok', 'error', 'blocked')),
        error TEXT NOT NULL DEFAULT '',
        duration_ms INTEGER,
        data TEXT NOT NULL DEFAULT '{}',
        processed_at TEXT,
        UNIQUE (source, session_id, tool_use_id)
      );
      CREATE INDEX observations_pending ON observations(processed_at, session_id, ts);
      CREATE INDEX observations_ts ON observations(ts);

      CREATE TABLE instincts (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        category TEXT NOT NULL CHECK (category IN ('sequence', 'preference', 'fix_pattern', 'combo')),
        trigger TEXT NOT NULL DEFAULT '',
        action TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL DEFAULT '',
        domain TEXT NOT NULL DEFAULT 'general',
        project TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT '',
        explain TEXT NOT NULL DEFAULT '',
        metadata TEXT NOT NULL DEFAULT '{}',
        evidence INTEGER NOT NULL DEFAULT 1 CHECK (evidence >= 0),
        level INTEGER NOT NULL DEFAULT 0 CHECK (level BETWEEN 0 AND 3),
        confidence REAL NOT NULL CHECK (confidence BETWEEN 0 AND 1),
        folded_periods INTEGER NOT NULL DEFAULT 0,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        promoted_at TEXT,
        promoted_to TEXT,
        file_name TEXT
      );
      CREATE INDEX instincts_project ON instincts(project);

      -- Every change to an instinct's evidence or score: the timeline behind history and trending.
      CREATE TABLE instinct_events (
        id INTEGER PRIMARY KEY,
        instinct_id INTEGER NOT NULL REFERENCES instincts(id) ON DELETE CASCADE,
        ts TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('create', 'reinforce', 'decay', 'feedback', 'contradiction', 'import', 'alias', 'promote', 'raise')),
        delta_evidence INTEGER NOT NULL DEFAULT 0,
        delta_confidence REAL NOT NULL DEFAULT 0,
        source TEXT NOT NULL DEFAULT '',
        project TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX instinct_events_instinct_ts ON instinct_events(instinct_id, ts);
      CREATE INDEX instinct_events_ts ON instinct_events(ts);

      -- Retired keys whose observations are rerouted. No foreign key: a target can be
      -- removed later, and gc then cleans the orphan.
      CREATE TABLE aliases (
        pattern TEXT PRIMARY KEY,
        target TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE identity (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      INSERT INTO identity (key, value) VALUES ('session_count', '0');
    `);
  },
};

const convictionsEpisodesSearch: Migration = {
  version: 2,
  name: 'convictions, episodes and the instinct full-text index',
  up(db) {
    db.exec(`
      CREATE TABLE convictions (
        id INTEGER PRIMARY KEY,
        instinct_id INTEGER NOT NULL UNIQUE REFERENCES instincts(id) ON DELETE CASCADE,
        title TEXT NOT NULL,
        rule TEXT NOT NULL,
        created_at TEXT NOT NULL
      );

      CREATE TABLE episodes (
        id INTEGER PRIMARY KEY,
        pattern TEXT NOT NULL DEFAULT '',
        title TEXT NOT NULL,
        body TEXT NOT NULL DEFAULT '',
        project TEXT NOT NULL DEFAULT '',
        tags TEXT NOT NULL DEFAULT '[]',
        occurrences INTEGER NOT NULL DEFAULT 1,
        session_ids TEXT NOT NULL DEFAULT '[]',
        files TEXT NOT NULL DEFAULT '[]',
        date TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        file_name TEXT
      );
      CREATE INDEX episodes_pattern ON episodes(pattern);

      CREATE VIRTUAL TABLE instincts_fts USING fts5(
        key, trigger, action, explain, metadata,
        content='instincts', content_rowid='id', tokenize='porter unicode61'
      );
      CREATE TRIGGER instincts_fts_insert AFTER INSERT ON instincts BEGIN
        INSERT INTO instincts_fts(rowid, key, trigger, action, explain, metadata)
        VALUES (new.id, new.key, new.trigger, new.action, new.explain, new.metadata);
      END;
      CREATE TRIGGER instincts_fts_delete AFTER DELETE ON instincts BEGIN
        INSERT INTO instincts_fts(instincts_fts, rowid, key, trigger, action, explain, metadata)
        VALUES ('delete', old.id, old.key, old.trigger, old.action, old.explain, old.metadata);
      END;
      CREATE TRIGGER instincts_fts_update AFTER UPDATE OF key, trigger, action, explain, metadata ON instincts BEGIN
        INSERT INTO instincts_fts(instincts_fts, rowid, key, trigger, action, explain, metadata)
        VALUES ('delete', old.id, old.key, old.trigger, old.action, old.explain, old.metadata);
        INSERT INTO instincts_fts(rowid, key, trigger, action, explain, metadata)
        VALUES (new.id, new.key, new.trigger, new.action, new.explain, new.metadata);
      END;
      INSERT INTO instincts_fts(instincts_fts) VALUES ('rebuild');
    `);
  },
};

export const MIGRATIONS: readonly Migration[] = [
  coreRecords,
  convictionsEpisodesSearch,
  learningMigration,
  graphMigration,
  documentsMigration,
  speakersMigration,
  graphVectorsMigration,
  graphDocumentsMigration,
  correctionsMigration,
  graphViewMigration,
  sessionDocumentsMigration,
  agentMigration,
  scheduleMigration,
  conversationsMigration,
  signalScopeMigration,
  instinctProjectsMigration,
  documentsTimeMigration,
  serviceTriggersMigration,
];

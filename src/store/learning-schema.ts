/**
 * Tables of the learning run and its maintenance (issue 5). Self-contained: it only adds
 * tables and one trigger, so its version number can move when branches merge.
 */
import type { Migration } from './migrations.js';

/** Columns of the observation contract, listed once so the archive never depends on `SELECT *`. */
// prettier-ignore
export const OBSERVATION_COLUMNS = [
  'id', 'source', 'session_id', 'tool_use_id', 'ts', 'event', 'project', 'cwd', 'tool', 'intent', 'input',
  'files', 'outcome', 'error', 'duration_ms', 'data', 'processed_at',
] as const;

export const learningMigration: Migration = {
  version: 3,
  name: 'learning: pattern sightings, suggestion log, preference signals, learn runs, LLM usage, observation tiers',
  up(db) {
    db.exec(`
      -- One row per (pattern, session): how often a candidate recurred, across runs, without double counts.
      CREATE TABLE pattern_sightings (
        kind TEXT NOT NULL DEFAULT 'pattern' CHECK (kind IN ('pattern', 'contradiction', 'file')),
        key TEXT NOT NULL,
        project TEXT NOT NULL DEFAULT '',
        session_id TEXT NOT NULL,
        ts TEXT NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (kind, key, project, session_id)
      );
      CREATE INDEX pattern_sightings_ts ON pattern_sightings(ts);

      -- Effectiveness: what suggest() returned, and the later observe() that confirmed it.
      CREATE TABLE suggestions (
        id INTEGER PRIMARY KEY,
        pattern TEXT NOT NULL,
        project TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL DEFAULT '',
        suggested_at TEXT NOT NULL,
        confirmed_at TEXT
      );
      CREATE INDEX suggestions_pattern ON suggestions(pattern, confirmed_at, suggested_at);
      CREATE INDEX suggestions_at ON suggestions(suggested_at);

      -- Signal tracker log (rolling window).
      CREATE TABLE preference_signals (
        id INTEGER PRIMARY KEY,
        session_id TEXT NOT NULL,
        ts TEXT NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('explicit', 'principle', 'correction')),
        signal TEXT NOT NULL,
        raw TEXT NOT NULL DEFAULT '',
        project TEXT NOT NULL DEFAULT '',
        UNIQUE (session_id, signal)
      );

      CREATE TABLE learn_runs (
        id INTEGER PRIMARY KEY,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        status TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'done', 'failed')),
        pid INTEGER,
        summary TEXT NOT NULL DEFAULT '{}'
      );

      -- Every model call's token use: the per-day budget sums this.
      CREATE TABLE llm_usage (
        id INTEGER PRIMARY KEY,
        ts TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL DEFAULT '',
        purpose TEXT NOT NULL DEFAULT '',
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        ok INTEGER NOT NULL DEFAULT 1
      );
      CREATE INDEX llm_usage_ts ON llm_usage(ts);

      -- Memory tiers: tool usage of archived observations, per month.
      CREATE TABLE tool_usage_monthly (
        month TEXT NOT NULL,
        project TEXT NOT NULL DEFAULT '',
        tool TEXT NOT NULL,
        count INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (month, project, tool)
      );

      -- Processed observations older than 30 days move here; their ids stay reserved so a
      -- later import of the same transcript is still a no-op.
      CREATE TABLE observations_archive (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL,
        session_id TEXT NOT NULL,
        tool_use_id TEXT NOT NULL,
        ts TEXT NOT NULL,
        event TEXT NOT NULL,
        project TEXT NOT NULL DEFAULT '',
        cwd TEXT NOT NULL DEFAULT '',
        tool TEXT NOT NULL DEFAULT '',
        intent TEXT NOT NULL DEFAULT '',
        input TEXT NOT NULL DEFAULT '',
        files TEXT NOT NULL DEFAULT '[]',
        outcome TEXT NOT NULL DEFAULT 'ok',
        error TEXT NOT NULL DEFAULT '',
        duration_ms INTEGER,
        data TEXT NOT NULL DEFAULT '{}',
        processed_at TEXT,
        archived_at TEXT NOT NULL,
        UNIQUE (source, session_id, tool_use_id)
      );
      CREATE INDEX observations_archive_session ON observations_archive(session_id, ts);
      CREATE TRIGGER observations_skip_archived BEFORE INSERT ON observations
      WHEN EXISTS (SELECT 1 FROM observations_archive a
                   WHERE a.source = NEW.source AND a.session_id = NEW.session_id AND a.tool_use_id = NEW.tool_use_id)
      BEGIN SELECT RAISE(IGNORE); END;
    `);
  },
};

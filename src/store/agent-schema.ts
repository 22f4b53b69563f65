/**
 * The personal agent's model calls (migration 12): tokens and cost per call, so the budget
 * tracker can sum the day's spend in USD and `agent budget` can report it by model.
 */
import type { Migration } from './migrations.js';

export const agentMigration: Migration = {
  version: 12,
  name: 'agent model calls: tokens and cost per call for the daily budget',
  up(db) {
    db.exec(`
      CREATE TABLE agent_calls (
        id INTEGER PRIMARY KEY,
        ts TEXT NOT NULL,
        session TEXT NOT NULL DEFAULT '',
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        route TEXT NOT NULL CHECK (route IN ('local', 'remote')),
        input_tokens INTEGER NOT NULL CHECK (input_tokens >= 0),
        output_tokens INTEGER NOT NULL CHECK (output_tokens >= 0),
        cost_usd REAL NOT NULL CHECK (cost_usd >= 0)
      );
      CREATE INDEX agent_calls_ts ON agent_calls(ts);
    `);
  },
};

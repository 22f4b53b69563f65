/**
 * The agent's conversations (migration 14): each persona's recent messages of a session, so
 * a conversation over Telegram or the gateway goes on after `agent serve` restarts.
 */
import type { Migration } from './migrations.js';

export const conversationsMigration: Migration = {
  version: 14,
  name: "agent conversations: each persona's recent messages per session, kept across restarts",
  up(db) {
    db.exec(`
      CREATE TABLE agent_conversations (
        agent TEXT NOT NULL,
        session TEXT NOT NULL,
        messages TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (agent, session)
      );
    `);
  },
};

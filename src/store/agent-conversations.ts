/** The agent's conversations (agent-conversations-schema.ts): the messages as JSON, per persona and session. No rules. */
import { type Db, cachedStatement } from './db.js';

export interface ConversationRepository {
  /** The messages kept for the session, or undefined when none are (or the row is unreadable). */
  load(agent: string, session: string): unknown[] | undefined;
  save(agent: string, session: string, messages: readonly unknown[], at: string): void;
  /** What tells one saved version from the next (when and how much), or undefined when none is kept. */
  stamp(agent: string, session: string): string | undefined;
  drop(agent: string, session: string): void;
  /** Forgets conversations nobody spoke in since `before` (ISO); returns how many. */
  prune(before: string): number;
  /** The session starting with `prefix` (any persona) spoken in last, and when. */
  latest(prefix: string): { session: string; updated_at: string } | undefined;
}

export function createConversationRepository(db: Db): ConversationRepository {
  return {
    load(agent, session) {
      const row = cachedStatement(db, 'SELECT messages FROM agent_conversations WHERE agent = ? AND session = ?').get(agent, session) as
        { messages: string } | undefined;
      if (!row) return undefined;
      try {
        const messages: unknown = JSON.parse(row.messages);
        return Array.isArray(messages) ? messages : undefined;
      } catch {
        return undefined;
      }
    },
    save(agent, session, messages, at) {
      cachedStatement(
        db,
        `INSERT INTO agent_conversations (agent, session, messages, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (agent, session) DO UPDATE SET messages = excluded.messages, updated_at = excluded.updated_at`,
      ).run(agent, session, JSON.stringify(messages), at);
    },
    stamp: (agent, session) =>
      (
        cachedStatement(
          db,
          "SELECT updated_at || ' ' || length(messages) AS stamp FROM agent_conversations WHERE agent = ? AND session = ?",
        ).get(agent, session) as { stamp: string } | undefined
      )?.stamp,
    drop(agent, session) {
      cachedStatement(db, 'DELETE FROM agent_conversations WHERE agent = ? AND session = ?').run(agent, session);
    },
    prune: (before) => cachedStatement(db, 'DELETE FROM agent_conversations WHERE updated_at < ?').run(before).changes,
    latest: (prefix) =>
      cachedStatement(
        db,
        'SELECT session, updated_at FROM agent_conversations WHERE substr(session, 1, length(?)) = ? ORDER BY updated_at DESC LIMIT 1',
      ).get(prefix, prefix) as { session: string; updated_at: string } | undefined,
  };
}

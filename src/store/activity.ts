/**
 * Activity over time, for the dashboard: tool calls per day and per session (with their
 * failures), and per-day counts of what the store saw and learned. Days are UTC dates
 * (the first 10 characters of an ISO instant). SQL only.
 */
import { type Db, cachedStatement } from './db.js';

/** Calls of one tool on one day (or in one session), and how many of them failed. */
export interface ToolCount {
  key: string;
  tool: string;
  calls: number;
  failed: number;
}

/** A failed or blocked tool call. */
export interface ToolFailure {
  ts: string;
  session_id: string;
  tool: string;
  outcome: string;
  error: string;
}

/** One day's count of one signal. */
export interface DayCount {
  day: string;
  signal: 'observations' | 'sessions' | 'corrections' | 'feedback' | 'instincts';
  n: number;
}

export interface ActivityRepository {
  /** Tool calls since `since`, per day and tool. */
  toolDays(since: string): ToolCount[];
  /** Tool calls since `since`, per session and tool. */
  toolSessions(since: string): ToolCount[];
  /** The latest failed or blocked tool calls since `since`, newest first. */
  toolFailures(since: string, limit: number): ToolFailure[];
  /** Per day since `since`: observations, sessions started, correction signals, feedback given, instincts created. */
  signalDays(since: string): DayCount[];
  /** When the latest observation was made; null when there is none. */
  latest(): string | null;
  /** When the first observation was made; null when there is none. */
  first(): string | null;
  /** When the user last gave feedback on an instinct; null when never. */
  latestFeedback(): string | null;
}

const TOOL_CALLS = "FROM observations WHERE event = 'tool' AND tool != '' AND ts >= ?";

export function createActivityRepository(db: Db): ActivityRepository {
  return {
    latest: () => (cachedStatement(db, 'SELECT MAX(ts) FROM observations', { raw: true }).get() as [string | null])[0],
    first: () => (cachedStatement(db, 'SELECT MIN(ts) FROM observations', { raw: true }).get() as [string | null])[0],
    latestFeedback: () =>
      (cachedStatement(db, "SELECT MAX(ts) FROM instinct_events WHERE kind = 'feedback'", { raw: true }).get() as [string | null])[0],
    toolDays: (since) =>
      cachedStatement(
        db,
        `SELECT substr(ts, 1, 10) AS key, tool, COUNT(*) AS calls, SUM(outcome != 'ok') AS failed ${TOOL_CALLS}
         GROUP BY key, tool ORDER BY key, calls DESC, tool`,
      ).all(since) as ToolCount[],
    toolSessions: (since) =>
      cachedStatement(
        db,
        `SELECT session_id AS key, tool, COUNT(*) AS calls, SUM(outcome != 'ok') AS failed ${TOOL_CALLS}
         GROUP BY key, tool ORDER BY MIN(ts), key, calls DESC, tool`,
      ).all(since) as ToolCount[],
    toolFailures: (since, limit) =>
      cachedStatement(
        db,
        `SELECT ts, session_id, tool, outcome, error ${TOOL_CALLS} AND outcome != 'ok' ORDER BY ts DESC, id DESC LIMIT ?`,
      ).all(since, limit) as ToolFailure[],
    signalDays: (since) =>
      cachedStatement(
        db,
        `SELECT substr(ts, 1, 10) AS day, 'observations' AS signal, COUNT(*) AS n FROM observations WHERE ts >= @since GROUP BY day
         UNION ALL
         SELECT substr(started_at, 1, 10), 'sessions', COUNT(*) FROM sessions WHERE started_at >= @since GROUP BY 1
         UNION ALL
         SELECT substr(ts, 1, 10), 'corrections', COUNT(*) FROM preference_signals WHERE type = 'correction' AND ts >= @since GROUP BY 1
         UNION ALL
         SELECT substr(ts, 1, 10), 'feedback', COUNT(*) FROM instinct_events WHERE kind = 'feedback' AND ts >= @since GROUP BY 1
         UNION ALL
         SELECT substr(ts, 1, 10), 'instincts', COUNT(*) FROM instinct_events WHERE kind = 'create' AND ts >= @since GROUP BY 1`,
      ).all({ since }) as DayCount[],
  };
}

/** Observations: one event from an agent, idempotent on (source, session_id, tool_use_id), and their monthly archive. */
import { EDIT_TOOLS } from '../core/domain.js';
import { type Db, cachedStatement } from './db.js';
import { OBSERVATION_COLUMNS } from './learning-schema.js';

export type Outcome = 'ok' | 'error' | 'blocked';

export interface NewObservation {
  source: string;
  session_id: string;
  tool_use_id: string;
  ts: string;
  event?: string;
  project?: string;
  cwd?: string;
  tool?: string;
  intent?: string;
  input?: string;
  files?: string[];
  outcome?: Outcome;
  error?: string;
  duration_ms?: number | null;
  data?: Record<string, unknown>;
}

export interface ObservationRow {
  id: number;
  source: string;
  session_id: string;
  tool_use_id: string;
  ts: string;
  event: string;
  project: string;
  cwd: string;
  tool: string;
  intent: string;
  input: string;
  files: string;
  outcome: Outcome;
  error: string;
  duration_ms: number | null;
  data: string;
  processed_at: string | null;
}

interface ToolUsageRow {
  month: string;
  tool: string;
  n: number;
}

export interface ObservationRepository {
  /** True when the row was new, false when the same event was already recorded (or archived). */
  insert(obs: NewObservation): boolean;
  count(options?: { pendingOnly?: boolean; since?: string }): number;
  /** A session's observations, oldest first; `source` narrows to one agent's. */
  forSession(sessionId: string, options?: { pendingOnly?: boolean; source?: string }): ObservationRow[];
  markProcessed(ids: readonly number[], at: string): void;
  /** Sessions with unprocessed observations, oldest activity first. */
  pendingSessions(): string[];
  /** How many prompts of a session with exactly this text were recorded before `before`. */
  promptsBefore(source: string, sessionId: string, text: string, before: string): number;
  /** Whether anything of the session was recorded (and not archived). */
  hasSession(source: string, sessionId: string): boolean;
  /** Whether another tool call of the session (not `exceptToolUseId`) edited `file` (reading it does not count). */
  sessionEdited(sessionId: string, exceptToolUseId: string, file: string): boolean;
  /** The latest tool call or prompt recorded. */
  lastActivity(): string | undefined;
  /** Whether any observation of `project` (live or archived) holds `text` in its input, data or error, case aside. */
  mentions(project: string, text: string): boolean;
  /** How many observations `gc` moved to the archive, and the newest of them. */
  archived(): { count: number; last: string | undefined };
  /** Readable names of projects by fingerprint, as the hooks recorded them. */
  projectNames(): Map<string, string>;
  /**
   * Moves processed observations older than `before` to the archive (their ids stay
   * reserved, so replays stay no-ops) and adds their tool calls to the monthly counts.
   */
  archiveProcessed(before: string, at: string): { archived: number; months: number };
  /** Tool calls per month and tool: archived counts plus live observations. */
  toolUsage(project?: string): ToolUsageRow[];
}

const EDIT_TOOLS_JSON = JSON.stringify([...EDIT_TOOLS]);

/** The columns a new observation is stored with: its defaults filled in, lists and data as JSON. */
export function observationColumns(obs: NewObservation): Omit<ObservationRow, 'id' | 'processed_at'> {
  return {
    source: obs.source,
    session_id: obs.session_id,
    tool_use_id: obs.tool_use_id,
    ts: obs.ts,
    event: obs.event ?? 'tool',
    project: obs.project ?? '',
    cwd: obs.cwd ?? '',
    tool: obs.tool ?? '',
    intent: obs.intent ?? '',
    input: obs.input ?? '',
    files: JSON.stringify(obs.files ?? []),
    outcome: obs.outcome ?? 'ok',
    error: obs.error ?? '',
    duration_ms: obs.duration_ms ?? null,
    data: JSON.stringify(obs.data ?? {}),
  };
}

export function createObservationRepository(db: Db): ObservationRepository {
  return {
    insert(obs) {
      const info = cachedStatement(
        db,
        `INSERT INTO observations (source, session_id, tool_use_id, ts, event, project, cwd, tool, intent, input, files, outcome, error, duration_ms, data)
         VALUES (@source, @session_id, @tool_use_id, @ts, @event, @project, @cwd, @tool, @intent, @input, @files, @outcome, @error, @duration_ms, @data)
         ON CONFLICT (source, session_id, tool_use_id) DO NOTHING`,
      ).run(observationColumns(obs));
      return info.changes > 0;
    },
    count(options = {}) {
      if (options.since !== undefined)
        return (cachedStatement(db, 'SELECT COUNT(*) AS n FROM observations WHERE ts >= ?').get(options.since) as { n: number }).n;
      const sql = options.pendingOnly
        ? 'SELECT COUNT(*) AS n FROM observations WHERE processed_at IS NULL'
        : 'SELECT COUNT(*) AS n FROM observations';
      return (cachedStatement(db, sql).get() as { n: number }).n;
    },
    forSession(sessionId, options = {}) {
      const where = ['session_id = @sessionId'];
      if (options.pendingOnly) where.push('processed_at IS NULL');
      if (options.source !== undefined) where.push('source = @source');
      return cachedStatement(db, `SELECT * FROM observations WHERE ${where.join(' AND ')} ORDER BY ts, id`).all({
        sessionId,
        ...(options.source !== undefined ? { source: options.source } : {}),
      }) as ObservationRow[];
    },
    markProcessed(ids, at) {
      const stmt = cachedStatement(db, 'UPDATE observations SET processed_at = ? WHERE id = ?');
      for (const id of ids) stmt.run(at, id);
    },
    pendingSessions: () =>
      (
        db
          .prepare('SELECT session_id FROM observations WHERE processed_at IS NULL GROUP BY session_id ORDER BY MIN(ts), session_id')
          .all() as { session_id: string }[]
      ).map((r) => r.session_id),
    promptsBefore: (source, sessionId, text, before) =>
      (
        cachedStatement(
          db,
          "SELECT COUNT(*) AS n FROM observations WHERE source = ? AND session_id = ? AND event = 'prompt' AND input = ? AND ts < ?",
        ).get(source, sessionId, text, before) as { n: number }
      ).n,
    hasSession: (source, sessionId) =>
      cachedStatement(db, 'SELECT 1 FROM observations WHERE source = ? AND session_id = ? LIMIT 1').get(source, sessionId) !== undefined,
    sessionEdited: (sessionId, exceptToolUseId, file) =>
      cachedStatement(
        db,
        `SELECT 1 FROM observations o, json_each(o.files) f
         WHERE o.session_id = ? AND o.tool_use_id != ? AND o.event = 'tool' AND f.value = ?
           AND o.tool IN (SELECT value FROM json_each(?)) LIMIT 1`,
      ).get(sessionId, exceptToolUseId, file, EDIT_TOOLS_JSON) !== undefined,
    lastActivity: () =>
      (db.prepare("SELECT MAX(ts) AS ts FROM observations WHERE event IN ('tool', 'prompt')").get() as { ts: string | null }).ts ??
      undefined,
    mentions(project, text) {
      const holds = (table: string) =>
        `SELECT 1 FROM ${table} WHERE project = @project
           AND (instr(lower(input), @text) > 0 OR instr(lower(data), @text) > 0 OR instr(lower(error), @text) > 0) LIMIT 1`;
      const params = { project, text: text.toLowerCase() };
      return (
        cachedStatement(db, holds('observations')).get(params) !== undefined ||
        cachedStatement(db, holds('observations_archive')).get(params) !== undefined
      );
    },
    archived() {
      const row = db.prepare('SELECT COUNT(*) AS count, MAX(ts) AS last FROM observations_archive').get() as {
        count: number;
        last: string | null;
      };
      return { count: row.count, last: row.last ?? undefined };
    },
    projectNames() {
      const names = new Map<string, string>();
      const rows = db
        .prepare(
          `SELECT project, project_name AS name FROM sessions WHERE project != '' AND project_name != ''
           UNION ALL
           SELECT project, json_extract(data, '$.project_name') AS name FROM (SELECT project, data FROM observations WHERE project != '' GROUP BY project)`,
        )
        .all() as { project: string; name: unknown }[];
      for (const r of rows) if (typeof r.name === 'string' && r.name && !names.has(r.project)) names.set(r.project, r.name);
      return names;
    },
    archiveProcessed(before, at) {
      const cols = OBSERVATION_COLUMNS.join(', ');
      const where = 'processed_at IS NOT NULL AND ts < @before';
      const months = db
        .prepare(
          `INSERT INTO tool_usage_monthly (month, project, tool, count)
           SELECT substr(ts, 1, 7), project, tool, COUNT(*) FROM observations WHERE ${where} AND event = 'tool' AND tool != ''
           GROUP BY substr(ts, 1, 7), project, tool
           ON CONFLICT (month, project, tool) DO UPDATE SET count = count + excluded.count`,
        )
        .run({ before }).changes;
      db.prepare(
        `INSERT OR IGNORE INTO observations_archive (${cols}, archived_at) SELECT ${cols}, @at FROM observations WHERE ${where}`,
      ).run({
        before,
        at,
      });
      const archived = db.prepare(`DELETE FROM observations WHERE ${where}`).run({ before }).changes;
      return { archived, months };
    },
    toolUsage(project) {
      const filter = project !== undefined ? 'AND project = @project' : '';
      return db
        .prepare(
          `SELECT month, tool, SUM(n) AS n FROM (
             SELECT month, tool, count AS n, project FROM tool_usage_monthly WHERE 1 = 1 ${filter}
             UNION ALL
             SELECT substr(ts, 1, 7) AS month, tool, COUNT(*) AS n, project FROM observations
             WHERE event = 'tool' AND tool != '' ${filter} GROUP BY substr(ts, 1, 7), tool, project)
           GROUP BY month, tool ORDER BY month, n DESC, tool`,
        )
        .all(project !== undefined ? { project } : {}) as ToolUsageRow[];
    },
  };
}

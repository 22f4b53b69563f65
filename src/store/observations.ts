/** Observations: one event from an agent, idempotent on (source, session_id, tool_use_id). */
import type { Db } from './db.js';

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

/** Returns true when the row was new, false when the same event was already recorded. */
export function insertObservation(db: Db, obs: NewObservation): boolean {
  const info = db
    .prepare(
      `INSERT INTO observations (source, session_id, tool_use_id, ts, event, project, cwd, tool, intent, input, files, outcome, error, duration_ms, data)
       VALUES (@source, @session_id, @tool_use_id, @ts, @event, @project, @cwd, @tool, @intent, @input, @files, @outcome, @error, @duration_ms, @data)
       ON CONFLICT (source, session_id, tool_use_id) DO NOTHING`,
    )
    .run({
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
    });
  return info.changes > 0;
}

export function countObservations(db: Db, pendingOnly = false): number {
  const sql = pendingOnly ? 'SELECT COUNT(*) AS n FROM observations WHERE processed_at IS NULL' : 'SELECT COUNT(*) AS n FROM observations';
  return (db.prepare(sql).get() as { n: number }).n;
}

export function sessionObservations(db: Db, sessionId: string, pendingOnly = false): ObservationRow[] {
  const filter = pendingOnly ? 'AND processed_at IS NULL' : '';
  return db.prepare(`SELECT * FROM observations WHERE session_id = ? ${filter} ORDER BY ts, id`).all(sessionId) as ObservationRow[];
}

export function markProcessed(db: Db, ids: readonly number[], at: string): void {
  const stmt = db.prepare('UPDATE observations SET processed_at = ? WHERE id = ?');
  for (const id of ids) stmt.run(at, id);
}

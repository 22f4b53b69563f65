/** SQL for the learning tables (learning-schema.ts): sightings, episodes, signals, runs. No rules. */
import type { Db } from './db.js';
import { type ObservationRow } from './observations.js';

export type SightingKind = 'pattern' | 'contradiction' | 'file';

export interface Sighting {
  kind: SightingKind;
  key: string;
  project: string;
  session_id: string;
  ts: string;
  detail: string;
}

/** Records that `session_id` showed the pattern; false when that session was already counted. */
export function addSighting(db: Db, s: Sighting): boolean {
  return (
    db
      .prepare(
        `INSERT INTO pattern_sightings (kind, key, project, session_id, ts, detail) VALUES (@kind, @key, @project, @session_id, @ts, @detail)
         ON CONFLICT DO NOTHING`,
      )
      .run(s).changes > 0
  );
}

export function countSightings(db: Db, kind: SightingKind, key: string, project?: string): number {
  const sql =
    project === undefined
      ? 'SELECT COUNT(*) AS n FROM pattern_sightings WHERE kind = ? AND key = ?'
      : 'SELECT COUNT(*) AS n FROM pattern_sightings WHERE kind = ? AND key = ? AND project = ?';
  const args = project === undefined ? [kind, key] : [kind, key, project];
  return (db.prepare(sql).get(...args) as { n: number }).n;
}

export function listSightings(db: Db, kind: SightingKind, key: string): Sighting[] {
  return db.prepare('SELECT * FROM pattern_sightings WHERE kind = ? AND key = ? ORDER BY ts').all(kind, key) as Sighting[];
}

export function deleteSightings(db: Db, kind: SightingKind, key: string): void {
  db.prepare('DELETE FROM pattern_sightings WHERE kind = ? AND key = ?').run(kind, key);
}

/** Moves tallies to a new key (after an alias), keeping one sighting per session. */
export function renameSightings(db: Db, from: string, to: string): void {
  db.prepare('UPDATE OR IGNORE pattern_sightings SET key = ? WHERE key = ?').run(to, from);
  db.prepare('DELETE FROM pattern_sightings WHERE key = ?').run(from);
}

/** Sessions in which both keys were sighted (file tallies of a co-edit pair). */
export function countCoSightings(db: Db, kind: SightingKind, a: string, b: string, project: string): number {
  return (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM pattern_sightings x JOIN pattern_sightings y
           ON x.session_id = y.session_id AND y.kind = x.kind AND y.project = x.project AND y.key = ?
         WHERE x.kind = ? AND x.key = ? AND x.project = ?`,
      )
      .get(b, kind, a, project) as { n: number }
  ).n;
}

/** Forgets sub-threshold tallies not seen since `before` (they never recurred). */
export function pruneSightings(db: Db, before: string, below: number): number {
  return db
    .prepare(
      `DELETE FROM pattern_sightings WHERE kind != 'contradiction' AND (kind, key, project) IN (
         SELECT kind, key, project FROM pattern_sightings GROUP BY kind, key, project HAVING MAX(ts) < ? AND COUNT(*) < ?)`,
    )
    .run(before, below).changes;
}

export interface EpisodeRow {
  id: number;
  pattern: string;
  title: string;
  body: string;
  project: string;
  tags: string;
  occurrences: number;
  session_ids: string;
  files: string;
  date: string;
  updated_at: string;
  file_name: string | null;
}

export function getEpisode(db: Db, pattern: string): EpisodeRow | undefined {
  return db.prepare('SELECT * FROM episodes WHERE pattern = ? ORDER BY id LIMIT 1').get(pattern) as EpisodeRow | undefined;
}

export function listEpisodes(db: Db): EpisodeRow[] {
  return db.prepare('SELECT * FROM episodes ORDER BY date, id').all() as EpisodeRow[];
}

export function upsertEpisode(db: Db, e: Omit<EpisodeRow, 'id' | 'file_name'>): EpisodeRow {
  const existing = getEpisode(db, e.pattern);
  if (existing) {
    db.prepare(
      `UPDATE episodes SET title = @title, body = @body, tags = @tags, occurrences = @occurrences, session_ids = @session_ids,
         files = @files, updated_at = @updated_at WHERE id = @id`,
    ).run({ ...e, id: existing.id });
    return { ...existing, ...e };
  }
  const info = db
    .prepare(
      `INSERT INTO episodes (pattern, title, body, project, tags, occurrences, session_ids, files, date, updated_at)
       VALUES (@pattern, @title, @body, @project, @tags, @occurrences, @session_ids, @files, @date, @updated_at)`,
    )
    .run(e);
  return { ...e, id: Number(info.lastInsertRowid), file_name: null };
}

export function deleteEpisodes(db: Db, pattern: string): number {
  return db.prepare('DELETE FROM episodes WHERE pattern = ?').run(pattern).changes;
}

export function setEpisodeFileName(db: Db, id: number, fileName: string): void {
  db.prepare('UPDATE episodes SET file_name = ? WHERE id = ?').run(fileName, id);
}

export interface SignalRow {
  session_id: string;
  ts: string;
  type: 'explicit' | 'principle' | 'correction';
  signal: string;
  raw: string;
  project: string;
}

export function addPreferenceSignal(db: Db, s: SignalRow): boolean {
  return (
    db
      .prepare(
        `INSERT INTO preference_signals (session_id, ts, type, signal, raw, project) VALUES (@session_id, @ts, @type, @signal, @raw, @project)
         ON CONFLICT DO NOTHING`,
      )
      .run(s).changes > 0
  );
}

/** Seed 003's rolling window: keeps the newest `max` signals. */
export function trimPreferenceSignals(db: Db, max: number): number {
  return db
    .prepare('DELETE FROM preference_signals WHERE id NOT IN (SELECT id FROM preference_signals ORDER BY ts DESC, id DESC LIMIT ?)')
    .run(max).changes;
}

/** Sessions with unprocessed observations, oldest activity first. */
export function pendingSessionsByTime(db: Db): string[] {
  return (
    db.prepare('SELECT session_id FROM observations WHERE processed_at IS NULL GROUP BY session_id ORDER BY MIN(ts), session_id').all() as {
      session_id: string;
    }[]
  ).map((r) => r.session_id);
}

/** Every observation of a session, processed or not (miners need the whole story), oldest first. */
export function allSessionObservations(db: Db, sessionId: string): ObservationRow[] {
  return db.prepare('SELECT * FROM observations WHERE session_id = ? ORDER BY ts, id').all(sessionId) as ObservationRow[];
}

export interface RunRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'done' | 'failed';
  pid: number | null;
  summary: string;
}

export function startRun(db: Db, at: string): number {
  return Number(
    db.prepare("INSERT INTO learn_runs (started_at, status, pid) VALUES (?, 'running', ?)").run(at, process.pid).lastInsertRowid,
  );
}

export function finishRun(db: Db, id: number, at: string, status: 'done' | 'failed', summary: unknown): void {
  db.prepare('UPDATE learn_runs SET finished_at = ?, status = ?, summary = ? WHERE id = ?').run(at, status, JSON.stringify(summary), id);
}

/** Runs that never finished (their process crashed): the next run re-renders everything. */
export function abandonedRuns(db: Db, exceptId: number): RunRow[] {
  return db.prepare("SELECT * FROM learn_runs WHERE status = 'running' AND id != ?").all(exceptId) as RunRow[];
}

export function markRunsFailed(db: Db, ids: readonly number[], at: string): void {
  const stmt = db.prepare("UPDATE learn_runs SET status = 'failed', finished_at = ? WHERE id = ?");
  for (const id of ids) stmt.run(at, id);
}

/** Seed 002: an observe() confirms the most recent unconfirmed suggestion of that pattern. */
export function confirmSuggestion(db: Db, pattern: string, at: string): boolean {
  return (
    db
      .prepare(
        `UPDATE suggestions SET confirmed_at = ? WHERE id = (
           SELECT id FROM suggestions WHERE pattern = ? AND confirmed_at IS NULL AND suggested_at <= ?
           ORDER BY suggested_at DESC, id DESC LIMIT 1)`,
      )
      .run(at, pattern, at).changes > 0
  );
}

export function addSuggestion(db: Db, row: { pattern: string; project: string; source: string; suggested_at: string }): void {
  db.prepare('INSERT INTO suggestions (pattern, project, source, suggested_at) VALUES (@pattern, @project, @source, @suggested_at)').run(
    row,
  );
}

/** Seed 000: the observer enriches the session summary with what it learned (once per line). */
export function appendSessionSummary(db: Db, sessionId: string, line: string): boolean {
  const row = db.prepare('SELECT summary FROM sessions WHERE id = ?').get(sessionId) as { summary: string } | undefined;
  if (!row || row.summary.split('\n').includes(line)) return false;
  db.prepare('UPDATE sessions SET summary = ? WHERE id = ?').run(
    row.summary.trim() ? `${row.summary.trimEnd()}\n${line}` : line,
    sessionId,
  );
  return true;
}

/** The learning run's own records (learning-schema.ts): pattern sightings, preference signals, runs, suggestions. No rules. */
import { type Db, cachedStatement } from './db.js';

type SightingKind = 'pattern' | 'contradiction' | 'file';

export interface Sighting {
  kind: SightingKind;
  key: string;
  project: string;
  session_id: string;
  ts: string;
  detail: string;
}

interface SignalRow {
  session_id: string;
  ts: string;
  type: 'explicit' | 'principle' | 'correction';
  signal: string;
  raw: string;
  project: string;
}

interface RunRow {
  id: number;
  started_at: string;
  finished_at: string | null;
  status: 'running' | 'done' | 'failed';
  pid: number | null;
  summary: string;
}

interface SuggestionStats {
  pattern: string;
  suggested: number;
  confirmed: number;
}

export interface LearningRepository {
  /** Records that `session_id` showed the pattern; false when that session was already counted. */
  addSighting(s: Sighting): boolean;
  countSightings(kind: SightingKind, key: string, project?: string): number;
  listSightings(kind: SightingKind, key: string): Sighting[];
  /** Sightings whose key matches a LIKE pattern (`pref:%request=%`), oldest first. */
  listSightingsLike(kind: SightingKind, pattern: string): Sighting[];
  deleteSightings(kind: SightingKind, key: string): void;
  /** Moves tallies to a new key (after an alias), keeping one sighting per session. */
  renameSightings(from: string, to: string): void;
  /** Sessions in which both keys were sighted (file tallies of a co-edit pair). */
  countCoSightings(kind: SightingKind, a: string, b: string, project: string): number;
  /** Forgets sub-threshold tallies not seen since `before` (they never recurred). */
  pruneSightings(before: string, below: number): number;

  addSignal(s: SignalRow): boolean;
  /** The rolling window: keeps the newest `max` signals. */
  trimSignals(max: number): number;

  startRun(at: string, pid: number): number;
  finishRun(id: number, at: string, status: 'done' | 'failed', summary: unknown): void;
  /** Runs that never finished, other than `exceptId` (their process may have crashed). */
  unfinishedRuns(exceptId: number): RunRow[];
  markRunsFailed(ids: readonly number[], at: string): void;
  countRuns(status: RunRow['status']): number;

  addSuggestion(row: { pattern: string; project: string; source: string; suggested_at: string }): void;
  /** An observe() confirms the most recent unconfirmed suggestion of that pattern. */
  confirmSuggestion(pattern: string, at: string): boolean;
  suggestionStats(since: string): SuggestionStats[];
}

export function createLearningRepository(db: Db): LearningRepository {
  return {
    addSighting: (s) =>
      cachedStatement(
        db,
        `INSERT INTO pattern_sightings (kind, key, project, session_id, ts, detail) VALUES (@kind, @key, @project, @session_id, @ts, @detail)
         ON CONFLICT DO NOTHING`,
      ).run(s).changes > 0,
    countSightings(kind, key, project) {
      if (project === undefined) {
        return (
          cachedStatement(db, 'SELECT COUNT(*) AS n FROM pattern_sightings WHERE kind = ? AND key = ?').get(kind, key) as { n: number }
        ).n;
      }
      return (
        cachedStatement(db, 'SELECT COUNT(*) AS n FROM pattern_sightings WHERE kind = ? AND key = ? AND project = ?').get(
          kind,
          key,
          project,
        ) as {
          n: number;
        }
      ).n;
    },
    listSightings: (kind, key) =>
      cachedStatement(db, 'SELECT * FROM pattern_sightings WHERE kind = ? AND key = ? ORDER BY ts').all(kind, key) as Sighting[],
    listSightingsLike: (kind, pattern) =>
      db.prepare('SELECT * FROM pattern_sightings WHERE kind = ? AND key LIKE ? ORDER BY ts, key').all(kind, pattern) as Sighting[],
    deleteSightings: (kind, key) => void db.prepare('DELETE FROM pattern_sightings WHERE kind = ? AND key = ?').run(kind, key),
    renameSightings(from, to) {
      db.prepare('UPDATE OR IGNORE pattern_sightings SET key = ? WHERE key = ?').run(to, from);
      db.prepare('DELETE FROM pattern_sightings WHERE key = ?').run(from);
    },
    countCoSightings: (kind, a, b, project) =>
      (
        cachedStatement(
          db,
          `SELECT COUNT(*) AS n FROM pattern_sightings x JOIN pattern_sightings y
             ON x.session_id = y.session_id AND y.kind = x.kind AND y.project = x.project AND y.key = ?
           WHERE x.kind = ? AND x.key = ? AND x.project = ?`,
        ).get(b, kind, a, project) as { n: number }
      ).n,
    pruneSightings: (before, below) =>
      db
        .prepare(
          `DELETE FROM pattern_sightings WHERE kind != 'contradiction' AND (kind, key, project) IN (
             SELECT kind, key, project FROM pattern_sightings GROUP BY kind, key, project HAVING MAX(ts) < ? AND COUNT(*) < ?)`,
        )
        .run(before, below).changes,

    addSignal: (s) =>
      cachedStatement(
        db,
        `INSERT INTO preference_signals (session_id, ts, type, signal, raw, project) VALUES (@session_id, @ts, @type, @signal, @raw, @project)
         ON CONFLICT DO NOTHING`,
      ).run(s).changes > 0,
    trimSignals: (max) =>
      db
        .prepare('DELETE FROM preference_signals WHERE id NOT IN (SELECT id FROM preference_signals ORDER BY ts DESC, id DESC LIMIT ?)')
        .run(max).changes,

    startRun: (at, pid) =>
      Number(db.prepare("INSERT INTO learn_runs (started_at, status, pid) VALUES (?, 'running', ?)").run(at, pid).lastInsertRowid),
    finishRun(id, at, status, summary) {
      db.prepare('UPDATE learn_runs SET finished_at = ?, status = ?, summary = ? WHERE id = ?').run(
        at,
        status,
        JSON.stringify(summary),
        id,
      );
    },
    unfinishedRuns: (exceptId) => db.prepare("SELECT * FROM learn_runs WHERE status = 'running' AND id != ?").all(exceptId) as RunRow[],
    markRunsFailed(ids, at) {
      const stmt = db.prepare("UPDATE learn_runs SET status = 'failed', finished_at = ? WHERE id = ?");
      for (const id of ids) stmt.run(at, id);
    },
    countRuns: (status) => (db.prepare('SELECT COUNT(*) AS n FROM learn_runs WHERE status = ?').get(status) as { n: number }).n,

    addSuggestion(row) {
      cachedStatement(
        db,
        'INSERT INTO suggestions (pattern, project, source, suggested_at) VALUES (@pattern, @project, @source, @suggested_at)',
      ).run(row);
    },
    confirmSuggestion: (pattern, at) =>
      cachedStatement(
        db,
        `UPDATE suggestions SET confirmed_at = ? WHERE id = (
           SELECT id FROM suggestions WHERE pattern = ? AND confirmed_at IS NULL AND suggested_at <= ?
           ORDER BY suggested_at DESC, id DESC LIMIT 1)`,
      ).run(at, pattern, at).changes > 0,
    suggestionStats: (since) =>
      db
        .prepare(
          `SELECT pattern, COUNT(*) AS suggested, SUM(confirmed_at IS NOT NULL) AS confirmed FROM suggestions
           WHERE suggested_at >= ? GROUP BY pattern ORDER BY confirmed DESC, suggested DESC, pattern`,
        )
        .all(since) as SuggestionStats[],
  };
}

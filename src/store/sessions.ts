/** Session summaries: one row per agent session. SQL only. */
import { type Db, cachedStatement } from './db.js';

export interface SessionRow {
  id: string;
  source: string;
  project: string;
  project_name: string;
  cwd: string;
  started_at: string | null;
  ended_at: string | null;
  tools_used: string;
  tool_counts: string;
  files_touched: string;
  summary: string;
  continues_from: string | null;
  transcript_path: string | null;
  file_name: string | null;
}

/** A session that touched a file (for recall). */
interface SessionTouch {
  id: string;
  project_name: string;
  started_at: string | null;
  summary: string;
}

/** Which files a recall asks about: the exact path, or the same path inside another checkout of the project. */
export interface FileRef {
  file: string;
  project: string;
  /** The path relative to the project root, when the file lies inside it. */
  relative?: string;
}

export interface SessionRepository {
  get(id: string): SessionRow | undefined;
  /** Inserts or replaces the whole row. */
  save(row: SessionRow): void;
  /** The latest session of `project` that started before `startedAt`, other than `id`. */
  previous(project: string, id: string, startedAt: string): string | undefined;
  /** Whether any session was recorded in the project. */
  seen(project: string): boolean;
  /** The `limit` most recently active sessions of a project, other than `exceptId`. */
  latest(project: string, exceptId: string | undefined, limit: number): SessionRow[];
  /** Sessions whose end (or start) lies before `before`. */
  endedBefore(before: string): SessionRow[];
  /** Sessions (newest first) that changed the file, other than `exceptId`. */
  touching(ref: FileRef, options: { exceptId?: string; limit: number }): SessionTouch[];
  /** Adds a line to a session's summary once; false when the session is unknown or already has it. */
  appendSummary(id: string, line: string): boolean;
  /** Every project sessions were seen in, the most recently active first. */
  projects(): ProjectActivity[];
  /** The `limit` most recently active sessions. */
  recent(limit: number): SessionRow[];
}

export interface ProjectActivity {
  project: string;
  project_name: string;
  sessions: number;
  last_active: string;
  /** The working directory of its latest session. */
  cwd: string;
}

const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** LIKE suffix matching `ref` inside any checkout (or the exact path when it has no relative form). */
export const fileSuffixPattern = (ref: FileRef): string => (ref.relative ? `%/${likeEscape(ref.relative)}` : likeEscape(ref.file));

export function createSessionRepository(db: Db): SessionRepository {
  const get = (id: string) => cachedStatement(db, 'SELECT * FROM sessions WHERE id = ?').get(id) as SessionRow | undefined;
  return {
    get,
    recent: (limit) =>
      cachedStatement(db, 'SELECT * FROM sessions ORDER BY COALESCE(ended_at, started_at) DESC, id LIMIT ?').all(
        Math.max(0, Math.floor(limit)),
      ) as SessionRow[],
    projects: () =>
      cachedStatement(
        db,
        `SELECT project, MAX(project_name) AS project_name, COUNT(*) AS sessions, MAX(COALESCE(ended_at, started_at)) AS last_active,
                  (SELECT cwd FROM sessions t WHERE t.project = s.project ORDER BY COALESCE(ended_at, started_at) DESC LIMIT 1) AS cwd
           FROM sessions s WHERE project != '' GROUP BY project ORDER BY last_active DESC`,
      ).all() as ProjectActivity[],
    save(row) {
      cachedStatement(
        db,
        `INSERT INTO sessions (id, source, project, project_name, cwd, started_at, ended_at, tools_used, tool_counts, files_touched, summary, continues_from, transcript_path, file_name)
         VALUES (@id, @source, @project, @project_name, @cwd, @started_at, @ended_at, @tools_used, @tool_counts, @files_touched, @summary, @continues_from, @transcript_path, @file_name)
         ON CONFLICT(id) DO UPDATE SET source = excluded.source, project = excluded.project, project_name = excluded.project_name, cwd = excluded.cwd,
           started_at = excluded.started_at, ended_at = excluded.ended_at, tools_used = excluded.tools_used, tool_counts = excluded.tool_counts,
           files_touched = excluded.files_touched, summary = excluded.summary, continues_from = excluded.continues_from,
           transcript_path = excluded.transcript_path, file_name = excluded.file_name`,
      ).run(row);
    },
    previous: (project, id, startedAt) =>
      (
        cachedStatement(
          db,
          'SELECT id FROM sessions WHERE project = ? AND id != ? AND started_at < ? ORDER BY started_at DESC LIMIT 1',
        ).get(project, id, startedAt) as { id: string } | undefined
      )?.id,
    seen: (project) => cachedStatement(db, 'SELECT 1 FROM sessions WHERE project = ? LIMIT 1').get(project) !== undefined,
    latest: (project, exceptId, limit) =>
      cachedStatement(db, 'SELECT * FROM sessions WHERE project = ? AND id != ? ORDER BY COALESCE(ended_at, started_at) DESC LIMIT ?').all(
        project,
        exceptId ?? '',
        limit,
      ) as SessionRow[],
    endedBefore: (before) => db.prepare('SELECT * FROM sessions WHERE coalesce(ended_at, started_at) < ?').all(before) as SessionRow[],
    touching: (ref, options) =>
      cachedStatement(
        db,
        `SELECT DISTINCT s.id, s.project_name, s.started_at, s.summary FROM sessions s, json_each(s.files_touched) f
         WHERE s.id != @session AND (f.value = @file OR (s.project = @project AND f.value LIKE @suffix ESCAPE '\\'))
         ORDER BY s.started_at DESC LIMIT @limit`,
      ).all({
        session: options.exceptId ?? '',
        file: ref.file,
        project: ref.project,
        suffix: fileSuffixPattern(ref),
        limit: options.limit,
      }) as SessionTouch[],
    appendSummary(id, line) {
      const row = get(id);
      if (!row || row.summary.split('\n').includes(line)) return false;
      db.prepare('UPDATE sessions SET summary = ? WHERE id = ?').run(row.summary.trim() ? `${row.summary.trimEnd()}\n${line}` : line, id);
      return true;
    },
  };
}

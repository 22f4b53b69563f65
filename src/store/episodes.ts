/** Episodes: notable one-offs below the instinct threshold, kept until they recur. SQL only. */
import { type Db, cachedStatement } from './db.js';
import { type FileRef, fileSuffixPattern } from './sessions.js';

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

type NewEpisode = Omit<EpisodeRow, 'id' | 'file_name'>;

export interface EpisodeRepository {
  get(pattern: string): EpisodeRow | undefined;
  /** Oldest first. */
  list(): EpisodeRow[];
  /** Creates the episode of `pattern`, or updates the one recorded (its project and date stay). */
  upsert(episode: NewEpisode): EpisodeRow;
  deleteByPattern(pattern: string): number;
  setFileName(id: number, fileName: string): void;
  /** Episodes (newest first) that named the file. */
  touching(ref: FileRef, limit: number): { title: string; date: string; body: string }[];
}

export function createEpisodeRepository(db: Db): EpisodeRepository {
  const get = (pattern: string) =>
    cachedStatement(db, 'SELECT * FROM episodes WHERE pattern = ? ORDER BY id LIMIT 1').get(pattern) as EpisodeRow | undefined;
  return {
    get,
    list: () => db.prepare('SELECT * FROM episodes ORDER BY date, id').all() as EpisodeRow[],
    upsert(e) {
      const existing = get(e.pattern);
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
    },
    deleteByPattern: (pattern) => db.prepare('DELETE FROM episodes WHERE pattern = ?').run(pattern).changes,
    setFileName: (id, fileName) => void db.prepare('UPDATE episodes SET file_name = ? WHERE id = ?').run(fileName, id),
    touching: (ref, limit) =>
      cachedStatement(
        db,
        `SELECT DISTINCT e.title, e.date, e.body FROM episodes e, json_each(e.files) f
         WHERE f.value = @file OR (e.project = @project AND f.value LIKE @suffix ESCAPE '\\')
         ORDER BY e.date DESC LIMIT @limit`,
      ).all({ file: ref.file, project: ref.project, suffix: fileSuffixPattern(ref), limit }) as {
        title: string;
        date: string;
        body: string;
      }[],
  };
}

/**
 * Session files: sessions/*.md with the frontmatter (date, project, directory,
 * session_id, tools_used, continues_from), tool frequencies and files touched. Files of
 * sessions older than 30 days move to sessions/_archived/ (T2 expiry).
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_MS } from '../../core/clock.js';
import { renderFrontmatter } from '../../core/frontmatter.js';
import { writeFileIfChanged, ensureDir } from '../../core/fs.js';
import { sha256Hex } from '../../core/sha256.js';
import { parseStringArray } from '../../store/json.js';
import type { SessionRow } from '../../store/sessions.js';
import type { Store } from '../../store/store.js';

export type { SessionRow } from '../../store/sessions.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * 2026-02-07T13:14:48.123Z + session -> 2026-02-07T131448Z-0a1b2c3d.md. The first 8 characters
 * name a UUID well enough; any other id also carries a hash of itself, so two ids that differ
 * only in characters a file name cannot hold ("a/b", "ab") or after the eighth never share a file.
 */
export function sessionFileName(startedAt: string, sessionId: string): string {
  const stamp = startedAt.slice(0, 19).replace(/:/g, '');
  const slug = sessionId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 8) || 'session';
  const exact = UUID.test(sessionId) || slug === sessionId;
  return exact ? `${stamp}Z-${slug}.md` : `${stamp}Z-${slug}-${sha256Hex(sessionId).slice(0, 8)}.md`;
}

const relative = (file: string, dir: string): string =>
  dir && file.startsWith(`${dir.replace(/\/+$/, '')}/`) ? file.slice(dir.replace(/\/+$/, '').length + 1) : file;

/** Pure: the sessions/*.md text. */
export function renderSessionMarkdown(row: SessionRow, previousFile?: string): string {
  const counts = JSON.parse(row.tool_counts) as Record<string, number>;
  const tools = parseStringArray(row.tools_used);
  const files = parseStringArray(row.files_touched);
  const body = [
    `# Session: ${row.project_name || row.id}`,
    '',
    row.summary,
    '',
    '## Tools',
    '',
    ...(tools.length ? tools.map((t) => `- ${t}: ${counts[t] ?? 0}`) : ['- none']),
    '',
    '## Files touched',
    '',
    ...(files.length ? files.map((f) => `- ${relative(f, row.cwd)}`) : ['- none']),
  ].join('\n');
  return renderFrontmatter(
    {
      date: row.started_at ?? undefined,
      ended: row.ended_at ?? undefined,
      project: row.project_name,
      directory: row.cwd,
      session_id: row.id,
      source: row.source,
      tools_used: tools,
      continues_from: previousFile,
    },
    body,
  );
}

/** The T2 expiry: files of sessions that ended more than this many days ago live in sessions/_archived/. */
export const SESSION_ARCHIVE_DAYS = 30;
export const ARCHIVED_DIR = '_archived';

const fileNameOf = (row: Pick<SessionRow, 'file_name' | 'started_at' | 'id'>): string =>
  row.file_name ?? sessionFileName(row.started_at ?? '', row.id);

/** Sessions that ended before this instant belong in the archive. */
const archiveCutoff = (now: Date): number => now.getTime() - SESSION_ARCHIVE_DAYS * DAY_MS;

function isArchivable(row: Pick<SessionRow, 'ended_at' | 'started_at'>, now: Date): boolean {
  const at = Date.parse(row.ended_at ?? row.started_at ?? '');
  return Number.isFinite(at) && at < archiveCutoff(now);
}

/** Where a session's file belongs now: sessions/, or sessions/_archived/ once the session is old. */
export function sessionFilePath(store: Store, row: SessionRow): string {
  const name = fileNameOf(row);
  return isArchivable(row, store.clock.now()) ? join(store.paths.sessions, ARCHIVED_DIR, name) : join(store.paths.sessions, name);
}

/** Writes the session's file where it belongs (see sessionFilePath); returns its path. */
export function renderSessionFile(store: Store, row: SessionRow): string {
  const previous = row.continues_from ? store.sessions.get(row.continues_from) : undefined;
  const path = sessionFilePath(store, row);
  writeFileIfChanged(path, renderSessionMarkdown(row, previous?.file_name ?? undefined));
  // A live copy left from before the session aged goes: one file per session.
  const live = join(store.paths.sessions, fileNameOf(row));
  if (path !== live) rmSync(live, { force: true });
  return path;
}

/** Moves the files of sessions older than SESSION_ARCHIVE_DAYS to sessions/_archived/; returns how many moved. */
export function archiveSessions(store: Store): number {
  const cutoff = new Date(archiveCutoff(store.clock.now())).toISOString();
  const rows = store.sessions.endedBefore(cutoff);
  const archive = join(store.paths.sessions, ARCHIVED_DIR);
  let moved = 0;
  for (const row of rows) {
    const live = join(store.paths.sessions, fileNameOf(row));
    if (!existsSync(live)) continue;
    ensureDir(archive);
    renameSync(live, join(archive, fileNameOf(row)));
    moved++;
  }
  return moved;
}

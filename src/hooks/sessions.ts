/**
 * Session summaries (seed 000): one row per session in the sessions table and a rendered
 * sessions/*.md with frontmatter (date, project, directory, session_id, tools_used,
 * continues_from), tool frequencies and files touched. Written at every stop, so a
 * session's summary grows with it; the session is counted once, when its row is created.
 * Files of sessions older than 30 days move to sessions/_archived/ (seed 003's T2 expiry).
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_MS } from '../core/clock.js';
import { writeFileIfChanged } from '../core/fs.js';
import type { ProjectInfo } from '../core/project.js';
import { truncate } from '../core/text.js';
import { parseStringArray } from '../store/json.js';
import type { ObservationRow } from '../store/observations.js';
import type { SessionRow } from '../store/sessions.js';
import type { Store } from '../store/store.js';

export type { SessionRow } from '../store/sessions.js';
import { renderFrontmatter } from '../core/frontmatter.js';
import { CHANGING_KINDS, toolKind } from './tools.js';

export interface SessionEndInput {
  source: string;
  sessionId: string;
  cwd: string;
  project: ProjectInfo;
  /** When the session (or its latest turn) ended. */
  endedAt: string;
  transcriptPath?: string;
  /** A title the agent gave the session (a transcript's summary record). */
  title?: string;
}

export interface SessionFacts {
  startedAt: string;
  endedAt: string;
  toolCounts: Record<string, number>;
  toolsUsed: string[];
  filesTouched: string[];
  errors: number;
  blocked: number;
  prompts: string[];
}

const MAX_FILES = 200;

/** Pure: what a session's observations say about it. */
export function sessionFacts(
  rows: readonly Pick<ObservationRow, 'ts' | 'event' | 'tool' | 'files' | 'outcome' | 'input'>[],
  endedAt: string,
): SessionFacts {
  const toolCounts: Record<string, number> = {};
  const files = new Set<string>();
  const prompts: string[] = [];
  let errors = 0;
  let blocked = 0;
  let startedAt = endedAt;
  let lastAt = '';
  for (const row of rows) {
    if (row.ts < startedAt) startedAt = row.ts;
    if (row.ts > lastAt) lastAt = row.ts;
    if (row.event === 'prompt') prompts.push(row.input);
    if (row.event !== 'tool') continue;
    toolCounts[row.tool] = (toolCounts[row.tool] ?? 0) + 1;
    if (row.outcome === 'error') errors++;
    if (row.outcome === 'blocked') blocked++;
    if (CHANGING_KINDS.has(toolKind(row.tool)) && row.outcome === 'ok') {
      for (const f of parseStringArray(row.files)) if (files.size < MAX_FILES) files.add(f);
    }
  }
  const toolsUsed = Object.keys(toolCounts).sort((a, b) => (toolCounts[b] ?? 0) - (toolCounts[a] ?? 0) || a.localeCompare(b));
  return {
    startedAt,
    endedAt: lastAt > endedAt ? lastAt : endedAt,
    toolCounts,
    toolsUsed,
    filesTouched: [...files],
    errors,
    blocked,
    prompts,
  };
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Pure: the deterministic summary paragraph (the learning run may enrich it later). */
export function summaryText(facts: SessionFacts, title?: string): string {
  const calls = Object.values(facts.toolCounts).reduce((a, b) => a + b, 0);
  const parts: string[] = [];
  const top = facts.toolsUsed.slice(0, 5).map((t) => `${t} ${facts.toolCounts[t]}`);
  parts.push(
    `${plural(calls, 'tool call')}${top.length ? ` (${top.join(', ')})` : ''}, ${plural(facts.filesTouched.length, 'file')} changed`,
  );
  if (facts.errors) parts.push(`${plural(facts.errors, 'error')}`);
  if (facts.blocked) parts.push(`${facts.blocked} blocked`);
  const first = facts.prompts[0];
  const heading = title ? `${truncate(title.replace(/\s+/g, ' ').trim(), 200).replace(/\.?$/, '.')} ` : '';
  const text = `${heading}${parts.join(', ')}.`;
  return first ? `${text} First prompt: "${truncate(first.replace(/\s+/g, ' ').trim(), 240)}"` : text;
}

/** 2026-02-07T13:14:48.123Z + session -> 2026-02-07T131448Z-0a1b2c3d.md */
export function sessionFileName(startedAt: string, sessionId: string): string {
  const stamp = startedAt.slice(0, 19).replace(/:/g, '');
  const slug = sessionId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 8) || 'session';
  return `${stamp}Z-${slug}.md`;
}

/**
 * Upserts the session's row from its observations, counts the session the first time it
 * is seen, and returns the row (undefined when the session has no observations at all).
 */
export function upsertSession(store: Store, input: SessionEndInput): { row: SessionRow; created: boolean } | undefined {
  return store.transaction(() => {
    const rows = store.observations.forSession(input.sessionId, { source: input.source });
    const existing = store.sessions.get(input.sessionId);
    if (rows.length === 0 && !existing) return undefined;
    const facts = sessionFacts(rows, input.endedAt);
    const startedAt = existing?.started_at && existing.started_at < facts.startedAt ? existing.started_at : facts.startedAt;
    const previous = store.sessions.previous(input.project.fingerprint, input.sessionId, startedAt);
    const row: SessionRow = {
      id: input.sessionId,
      source: input.source,
      project: input.project.fingerprint,
      project_name: input.project.name,
      cwd: input.cwd || existing?.cwd || '',
      started_at: startedAt,
      ended_at: existing?.ended_at && existing.ended_at > facts.endedAt ? existing.ended_at : facts.endedAt,
      tools_used: JSON.stringify(facts.toolsUsed),
      tool_counts: JSON.stringify(facts.toolCounts),
      files_touched: JSON.stringify(facts.filesTouched),
      summary: summaryText(facts, input.title),
      continues_from: previous ?? null,
      transcript_path: input.transcriptPath ?? existing?.transcript_path ?? null,
      file_name: existing?.file_name ?? sessionFileName(startedAt, input.sessionId),
    };
    store.sessions.save(row);
    if (!existing) store.identity.countSession(row.ended_at ?? input.endedAt);
    return { row, created: !existing };
  });
}

const relative = (file: string, dir: string): string =>
  dir && file.startsWith(`${dir.replace(/\/+$/, '')}/`) ? file.slice(dir.replace(/\/+$/, '').length + 1) : file;

/** Pure: the sessions/*.md text of seed 000. */
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

/** Seed 003's T2 expiry: files of sessions that ended more than this many days ago live in sessions/_archived/. */
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
    mkdirSync(archive, { recursive: true });
    renameSync(live, join(archive, fileNameOf(row)));
    moved++;
  }
  return moved;
}

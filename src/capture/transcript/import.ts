/**
 * `import-transcripts`: replays existing Claude Code transcripts into observations, prompts
 * and session summaries through the same mapping as the live hooks, so a live session and a
 * later import of it never double-count. One transaction per file; a file already imported
 * whole (same size and modification time) is skipped, so an interrupted import resumes
 * where it stopped and a second run adds nothing.
 */
import { statSync } from 'node:fs';
import type { Store } from '../../store/store.js';
import { write } from '../record.js';
import { renderSessionFile } from '../sessions/files.js';
import { type SavedSession, upsertSession } from '../sessions/summary.js';
import { drainSpool } from '../spool/drain.js';
import { type FilePlan, planFile } from './plan.js';
import { type Turn, turnText } from './turns.js';
import { specialKind } from '../../core/fs.js';
import { redact } from '../../core/redact.js';
import type { DocumentInput } from '../../store/documents/index.js';

interface ImportProgress {
  file: string;
  filesDone: number;
  filesTotal: number;
  observations: number;
}

interface ImportResult {
  files: number;
  imported_files: number;
  /** Read, but holding no prompt, tool call or session (an empty file, a summary line only): not counted imported. */
  empty_files: number;
  unchanged_files: number;
  unreadable_files: { file: string; reason: string }[];
  sessions: number;
  new_sessions: number;
  observations_new: number;
  observations_existing: number;
  tool_calls: number;
  noise: number;
  prompts: number;
  malformed_lines: number;
  /** Where the first malformed lines are (file and 1-based line), to name them. */
  malformed_at: { file: string; line: number }[];
  unfinished_tool_calls: number;
  records_by_type: Record<string, number>;
}

interface ImportOptions {
  /** Re-read files already imported (the result is the same; nothing is added twice). */
  force?: boolean;
  onProgress?: (p: ImportProgress) => void;
}

const stateKey = (file: string): string => `import:${file}`;

interface FileState {
  size: number;
  mtimeMs: number;
}

function alreadyImported(store: Store, file: string, state: FileState): boolean {
  const value = store.meta.read(stateKey(file));
  if (value === undefined) return false;
  try {
    const saved = JSON.parse(value) as FileState;
    return saved.size === state.size && saved.mtimeMs === state.mtimeMs;
  } catch {
    return false;
  }
}

const emptyResult = (): ImportResult => ({
  files: 0,
  imported_files: 0,
  empty_files: 0,
  unchanged_files: 0,
  unreadable_files: [],
  sessions: 0,
  new_sessions: 0,
  observations_new: 0,
  observations_existing: 0,
  tool_calls: 0,
  noise: 0,
  prompts: 0,
  malformed_lines: 0,
  malformed_at: [],
  unfinished_tool_calls: 0,
  records_by_type: {},
});

/** The file's size and modification time, or why it cannot be read. */
function fileState(file: string): FileState | { reason: string } {
  try {
    const st = statSync(file);
    // A pipe, socket or device named as a transcript is never opened: reading it could wait forever.
    const special = specialKind(st);
    if (special) return { reason: `it is ${special}, not a regular file (give a transcript file)` };
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch (err) {
    return { reason: (err as Error).message };
  }
}

/** How many malformed lines' places an import keeps: a few are named, the rest counted. */
const MAX_MALFORMED_NAMED = 20;

function countStats(result: ImportResult, file: string, plan: FilePlan): void {
  const s = plan.stats;
  if (plan.built.length === 0 && plan.turns.length === 0) result.empty_files++;
  else result.imported_files++;
  result.malformed_lines += s.malformed;
  for (const line of s.malformedAt.slice(0, MAX_MALFORMED_NAMED - result.malformed_at.length)) result.malformed_at.push({ file, line });
  result.unfinished_tool_calls += s.unfinished;
  result.tool_calls += s.toolResults;
  result.prompts += s.prompts;
  for (const [type, n] of Object.entries(s.byType)) result.records_by_type[type] = (result.records_by_type[type] ?? 0) + n;
}

const started = (store: Store, sessionId: string): boolean =>
  store.observations.forSession(sessionId).some((o) => o.event === 'session_start');

/** Writes one file's observations and its session summary in one transaction, and marks the file imported. */
function writePlan(store: Store, file: string, state: FileState, plan: FilePlan, result: ImportResult): SavedSession | undefined {
  return store.transaction(() => {
    for (const built of plan.built) {
      // The live hook recorded the session's start at its own moment: the transcript's is the same start.
      if ('observation' in built && built.observation.event === 'session_start' && started(store, built.observation.session_id)) {
        result.observations_existing++;
        continue;
      }
      const r = write(store, built);
      if (r.status === 'recorded') result.observations_new++;
      else if (r.status === 'duplicate') result.observations_existing++;
      else if (r.status === 'noise') result.noise++;
    }
    const end = plan.end;
    const title = plan.stats.title;
    const session = end
      ? upsertSession(store, {
          source: end.input.agent,
          sessionId: end.input.sessionId,
          cwd: end.input.cwd,
          project: end.project,
          endedAt: end.input.ts,
          transcriptPath: file,
          ...(title ? { title } : {}),
        })
      : undefined;
    const sessionId = plan.end?.input.sessionId ?? plan.stats.sessionId;
    if (sessionId) store.documents.upsert(turnDocuments(sessionId, plan.turns, title), store.clock.now().toISOString());
    store.meta.write(stateKey(file), JSON.stringify(state));
    return session;
  });
}

/** A session's turns as documents of the `turns` collection: one thread per session, in order. */
function turnDocuments(sessionId: string, turns: readonly Turn[], title: string | undefined): DocumentInput[] {
  return turns
    .map((t) => ({
      id: `${sessionId}#${t.seq}`,
      collection: 'turns',
      text: turnText(t),
      ts: t.ts,
      project: t.project,
      thread: sessionId,
      seq: t.seq,
      // A title is the transcript's own text: redacted like every stored field.
      ...(title ? { title: redact(title) } : {}),
      metadata: { session: sessionId, turn: t.seq },
    }))
    .filter((d) => d.text.trim());
}

/** Imports one file into `result`: skipped when unchanged (unless forced), reported when unreadable. */
async function importFile(store: Store, file: string, options: ImportOptions, result: ImportResult): Promise<void> {
  const state = fileState(file);
  if ('reason' in state) {
    result.unreadable_files.push({ file, reason: state.reason });
    return;
  }
  if (!options.force && alreadyImported(store, file, state)) {
    result.unchanged_files++;
    return;
  }
  let plan: FilePlan;
  try {
    plan = await planFile(file, store.paths.projectAliases);
  } catch (err) {
    result.unreadable_files.push({ file, reason: (err as Error).message });
    return;
  }
  // Not one line of JSON (a README, a log): say so rather than count it imported.
  if (plan.stats.lines > 0 && plan.stats.malformed === plan.stats.lines) {
    result.unreadable_files.push({ file, reason: 'not a transcript: no line of it is a JSON record' });
    return;
  }
  countStats(result, file, plan);
  const session = writePlan(store, file, state, plan, result);
  if (session) {
    result.sessions++;
    if (session.created) result.new_sessions++;
    renderSessionFile(store, session.row);
  }
}

export async function importTranscripts(store: Store, files: readonly string[], options: ImportOptions = {}): Promise<ImportResult> {
  const result = emptyResult();
  result.files = files.length;
  drainSpool(store, store.paths.home);
  let done = 0;
  for (const file of files) {
    options.onProgress?.({ file, filesDone: done, filesTotal: files.length, observations: result.observations_new });
    done++;
    await importFile(store, file, options, result);
  }
  options.onProgress?.({ file: '', filesDone: done, filesTotal: files.length, observations: result.observations_new });
  return result;
}

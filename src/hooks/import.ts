/**
 * `import-transcripts`: replays existing Claude Code transcripts into observations, prompts
 * and session summaries through the same mapping as the live hooks, so a live session and a
 * later import of it never double-count. One transaction per file; a file already imported
 * whole (same size and modification time) is skipped, so an interrupted import resumes
 * where it stopped and a second run adds nothing.
 */
import { createReadStream, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { detectProject } from '../core/project.js';
import type { Store } from '../store/store.js';
import { type HookInput, normalise } from './agents.js';
import { drainSpool } from '../capture/spool/drain.js';
import { promptText } from './observation.js';
import { type Built, lifecycleObservation, promptObservationFor, toolObservation, write } from './record.js';
import { renderSessionFile, upsertSession } from './sessions.js';
import { type TranscriptEvent, TranscriptReplay, type TranscriptStats } from './transcript.js';

export interface ImportProgress {
  file: string;
  filesDone: number;
  filesTotal: number;
  observations: number;
}

export interface ImportResult {
  files: number;
  imported_files: number;
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
  unfinished_tool_calls: number;
  records_by_type: Record<string, number>;
}

export interface ImportOptions {
  /** Re-read files already imported (the result is the same; nothing is added twice). */
  force?: boolean;
  onProgress?: (p: ImportProgress) => void;
}

/** Transcript files under the given paths (files, or directories searched recursively), sorted. */
export function transcriptFiles(paths: readonly string[]): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.jsonl')) files.push(p);
    }
  };
  for (const raw of paths) {
    const p = resolve(raw);
    try {
      if (statSync(p).isDirectory()) walk(p);
      else files.push(p);
    } catch {
      missing.push(raw);
    }
  }
  return { files: [...new Set(files)].sort(), missing };
}

/** ~/.claude/projects/<slug>/<session>.jsonl: the default import set. */
export function defaultTranscriptFiles(home: string): string[] {
  const root = join(home, '.claude', 'projects');
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) =>
        readdirSync(join(root, d.name), { withFileTypes: true })
          .filter((f) => f.isFile() && f.name.endsWith('.jsonl'))
          .map((f) => join(root, d.name, f.name)),
      )
      .sort();
  } catch {
    return [];
  }
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

async function* lines(file: string): AsyncGenerator<string> {
  const rl = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) yield line;
}

interface FilePlan {
  built: Built[];
  end?: HookInput;
  stats: TranscriptStats;
}

/** Reads one transcript into the observations it holds (pure mapping; nothing written yet). */
async function planFile(file: string): Promise<FilePlan> {
  const replay = new TranscriptReplay(file);
  const built: Built[] = [];
  let end: HookInput | undefined;
  const occurrences = new Map<string, number>();
  const take = (events: Iterable<TranscriptEvent>): void => {
    for (const event of events) {
      const input = normalise(event.payload, 'claude-code', String(event.payload.timestamp ?? ''));
      if (event.hook === 'observe') built.push(toolObservation(input));
      else if (event.hook === 'start') built.push(lifecycleObservation(input, 'start'));
      else if (event.hook === 'stop') {
        built.push(lifecycleObservation(input, 'end'));
        end = input;
      } else if (event.hook === 'prompt') {
        // The n-th identical prompt of the session gets the id the live hook gave it.
        const text = promptText(input.prompt ?? '');
        const n = occurrences.get(text) ?? 0;
        occurrences.set(text, n + 1);
        built.push(promptObservationFor(input, n));
      }
    }
  };
  for await (const line of lines(file)) take(replay.feed(line));
  take(replay.finish());
  return { built, stats: replay.stats, ...(end ? { end } : {}) };
}

const emptyResult = (): ImportResult => ({
  files: 0,
  imported_files: 0,
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
  unfinished_tool_calls: 0,
  records_by_type: {},
});

export async function importTranscripts(store: Store, files: readonly string[], options: ImportOptions = {}): Promise<ImportResult> {
  const result = emptyResult();
  result.files = files.length;
  drainSpool(store, store.paths.home);
  let done = 0;
  for (const file of files) {
    options.onProgress?.({ file, filesDone: done, filesTotal: files.length, observations: result.observations_new });
    done++;
    let state: FileState;
    try {
      const st = statSync(file);
      state = { size: st.size, mtimeMs: st.mtimeMs };
    } catch (err) {
      result.unreadable_files.push({ file, reason: (err as Error).message });
      continue;
    }
    if (!options.force && alreadyImported(store, file, state)) {
      result.unchanged_files++;
      continue;
    }
    let plan: FilePlan;
    try {
      plan = await planFile(file);
    } catch (err) {
      result.unreadable_files.push({ file, reason: (err as Error).message });
      continue;
    }
    result.imported_files++;
    const s = plan.stats;
    result.malformed_lines += s.malformed;
    result.unfinished_tool_calls += s.unfinished;
    result.tool_calls += s.toolResults;
    result.prompts += s.prompts;
    for (const [type, n] of Object.entries(s.byType)) result.records_by_type[type] = (result.records_by_type[type] ?? 0) + n;
    const session = store.transaction(() => {
      for (const built of plan.built) {
        const r = write(store, built);
        if (r.status === 'recorded') result.observations_new++;
        else if (r.status === 'duplicate') result.observations_existing++;
        else if (r.status === 'noise') result.noise++;
      }
      const end = plan.end;
      const summary = end
        ? upsertSession(store, {
            source: end.agent,
            sessionId: end.sessionId,
            cwd: end.cwd,
            project: detectProject(end.cwd),
            endedAt: end.ts,
            transcriptPath: file,
            ...(s.title ? { title: s.title } : {}),
          })
        : undefined;
      store.meta.write(stateKey(file), JSON.stringify(state));
      return summary;
    });
    if (session) {
      result.sessions++;
      if (session.created) result.new_sessions++;
      renderSessionFile(store, session.row);
    }
  }
  options.onProgress?.({ file: '', filesDone: done, filesTotal: files.length, observations: result.observations_new });
  return result;
}

/**
 * Test support: turns a real Claude Code transcript into observation rows of the brief's
 * contract (tool_use + its tool_result -> one 'tool' row; typed prompts -> 'prompt' rows;
 * first/last record -> session_start/session_end). Deliberately simple: capture owns the
 * production mapping (redaction included); this only feeds tests and bench:learn.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { fixedClock } from '../core/clock.js';
import { contentId, sha256 } from '../core/ids.js';
import type { LearnReport } from '../learn/report.js';
import { type LearnOptions, runLearn } from '../learn/run.js';
import { renderAfterLearn } from '../view/episodes.js';
import { type NewObservation } from '../store/observations.js';
import { type Store, withClock } from '../store/store.js';

export interface TranscriptSession {
  sessionId: string;
  cwd: string;
  startedAt: string;
  endedAt: string;
  observations: NewObservation[];
}

interface ConvertOptions {
  /** Git remote the sessions belong to; the project fingerprint hashes it (else the cwd). */
  remote?: string;
}

interface ToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
  ts: string;
  version?: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const cut = (text: string, max: number): string => (text.length <= max ? text : text.slice(0, max));

function normaliseRemote(remote: string): string {
  return remote
    .trim()
    .replace(/^[a-z+]+:\/\//i, '')
    .replace(/^[^@/]+@/, '')
    .replace(/:(?!\d)/, '/')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

function projectOf(cwd: string, options: ConvertOptions): { project: string; name: string } {
  if (options.remote) {
    const norm = normaliseRemote(options.remote);
    return { project: sha256(norm).slice(0, 16), name: basename(norm) };
  }
  return { project: sha256(cwd).slice(0, 16), name: basename(cwd) };
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((b) => (b && typeof b === 'object' && 'text' in b ? str((b as { text: unknown }).text) : '')).join('\n');
  }
  return '';
}

/** The one-line error summary of the contract: non-empty lines joined, at most 500 characters. */
function errorSummary(text: string): string {
  const lines = text
    .replace(/<\/?tool_use_error>/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return cut(lines.join(' | '), 500);
}

function inputSummary(tool: string, input: Record<string, unknown>): string {
  switch (tool) {
    case 'Bash':
      return str(input.command);
    case 'Edit':
    case 'Write':
    case 'MultiEdit':
    case 'Read':
      return str(input.file_path);
    case 'NotebookEdit':
      return str(input.notebook_path);
    case 'Grep':
    case 'Glob':
      return [str(input.pattern), str(input.path)].filter(Boolean).join(' in ');
    case 'Task':
      return str(input.description) || str(input.prompt);
    default:
      return JSON.stringify(input);
  }
}

function baseCommand(command: string): string {
  const first = command.trim().split(/\s+/)[0] ?? '';
  return basename(first);
}

function toolObservation(
  use: ToolUse,
  result: { ts: string; isError: boolean; text: string },
  sessionId: string,
  cwd: string,
  options: ConvertOptions,
): NewObservation {
  const { project, name } = projectOf(cwd, options);
  const files = ['Edit', 'Write', 'MultiEdit', 'Read', 'NotebookEdit'].includes(use.name)
    ? [str(use.input.file_path) || str(use.input.notebook_path)].filter(Boolean)
    : [];
  const file = files[0] ?? '';
  const exit = /^Exit code (\d+)/.exec(result.text)?.[1];
  const data: Record<string, unknown> = { project_name: name };
  if (use.name === 'Bash') data.base_command = baseCommand(str(use.input.command));
  if (file) {
    data.filename = basename(file);
    data.extension = extname(file).replace(/^\./, '');
  }
  if (use.name === 'Grep' || use.name === 'Glob') data.pattern = str(use.input.pattern);
  if (exit !== undefined) data.exit_code = Number(exit);
  else if (use.name === 'Bash' && !result.isError) data.exit_code = 0;
  if (use.version) data.agent_version = use.version;
  const duration = Date.parse(result.ts) - Date.parse(use.ts);
  return {
    source: 'claude-code',
    session_id: sessionId,
    tool_use_id: use.id,
    ts: result.ts,
    event: 'tool',
    project,
    cwd,
    tool: use.name,
    intent: use.name === 'Bash' || use.name === 'Task' ? str(use.input.description) : '',
    input: cut(inputSummary(use.name, use.input), 2000),
    files,
    outcome: result.isError ? 'error' : 'ok',
    error: result.isError ? errorSummary(result.text) : '',
    duration_ms: Number.isFinite(duration) && duration >= 0 ? duration : null,
    data,
  };
}

function promptText(record: Record<string, unknown>): string | undefined {
  if (record.isMeta || record.isCompactSummary) return undefined;
  const message = record.message as { content?: unknown } | undefined;
  const content = message?.content;
  let text: string;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content) && content.every((b) => b && typeof b === 'object' && (b as { type?: string }).type === 'text')) {
    text = content.map((b) => str((b as { text?: unknown }).text)).join('\n');
  } else return undefined;
  text = text.trim();
  if (!text || text.startsWith('<') || text.startsWith('[Request interrupted') || text.startsWith('Base directory for this skill'))
    return undefined;
  return text;
}

/** Parses one transcript file; unreadable lines are skipped. */
export function convertTranscript(path: string, options: ConvertOptions = {}): TranscriptSession {
  const lines = readFileSync(path, 'utf8').split('\n');
  const uses = new Map<string, ToolUse>();
  const observations: NewObservation[] = [];
  let sessionId = basename(path, '.jsonl');
  let cwd = '';
  let startedAt = '';
  let endedAt = '';
  for (const line of lines) {
    if (!line.trim()) continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const ts = str(record.timestamp);
    if (ts) {
      if (!startedAt) startedAt = ts;
      endedAt = ts;
    }
    if (str(record.sessionId)) sessionId = str(record.sessionId);
    if (str(record.cwd)) cwd = str(record.cwd);
    const content = (record.message as { content?: unknown } | undefined)?.content;
    if (record.type === 'assistant' && Array.isArray(content)) {
      for (const block of content as Record<string, unknown>[]) {
        if (block.type === 'tool_use') {
          uses.set(str(block.id), {
            id: str(block.id),
            name: str(block.name),
            input: (block.input as Record<string, unknown>) ?? {},
            ts,
            version: str(record.version) || undefined,
          });
        }
      }
    } else if (record.type === 'user') {
      if (Array.isArray(content) && content.some((b) => (b as { type?: string })?.type === 'tool_result')) {
        for (const block of content as Record<string, unknown>[]) {
          if (block.type !== 'tool_result') continue;
          const use = uses.get(str(block.tool_use_id));
          if (!use) continue;
          observations.push(
            toolObservation(use, { ts, isError: block.is_error === true, text: resultText(block.content) }, sessionId, cwd, options),
          );
        }
        continue;
      }
      const text = promptText(record);
      if (text) {
        const { project, name } = projectOf(cwd, options);
        observations.push({
          source: 'claude-code',
          session_id: sessionId,
          tool_use_id: `prompt:${contentId(sessionId, ts, text)}`,
          ts,
          event: 'prompt',
          project,
          cwd,
          tool: '',
          input: cut(text, 4000),
          data: { project_name: name },
        });
      }
    }
  }
  const { project, name } = projectOf(cwd, options);
  const edge = (event: 'session_start' | 'session_end', at: string): NewObservation => ({
    source: 'claude-code',
    session_id: sessionId,
    tool_use_id: event === 'session_start' ? `session_start:${at}` : 'session_end',
    ts: at,
    event,
    project,
    cwd,
    tool: '',
    data: { project_name: name },
  });
  if (startedAt) {
    observations.unshift(edge('session_start', startedAt));
    observations.push(edge('session_end', endedAt));
  }
  return { sessionId, cwd, startedAt, endedAt, observations };
}

export function transcriptDir(repoRoot: string): string {
  return join(repoRoot, '..', 'shared', 'data', 'claude-code-transcripts');
}

/** Every transcript, oldest session first. */
export function loadTranscripts(dir: string, options: ConvertOptions = {}): TranscriptSession[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => convertTranscript(join(dir, f), options))
    .filter((s) => s.startedAt)
    .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/** Inserts a session's observations; returns how many rows were new. */
export function insertSession(store: Store, session: TranscriptSession): number {
  let added = 0;
  store.transaction(() => {
    for (const obs of session.observations) if (store.observations.insert(obs)) added++;
  });
  return added;
}

/** A copy of a real session with extra observations placed in its middle, as if they had happened there. */
export function plant(
  session: TranscriptSession,
  extra: (at: { start: string; cwd: string; project: string; projectName: string; sessionId: string }) => NewObservation[],
): TranscriptSession {
  const tools = session.observations.filter((o) => o.event === 'tool');
  const middle = tools[Math.floor(tools.length / 2)] ?? session.observations[0];
  const first = session.observations[0];
  const added = extra({
    start: middle?.ts ?? session.startedAt,
    cwd: session.cwd,
    project: first?.project ?? '',
    projectName: String((first?.data as { project_name?: string } | undefined)?.project_name ?? ''),
    sessionId: session.sessionId,
  });
  const observations = [...session.observations, ...added].sort((a, b) => a.ts.localeCompare(b.ts));
  const endedAt = observations.reduce((m, o) => (o.ts > m ? o.ts : m), session.endedAt);
  return { ...session, observations, endedAt };
}

/** Replays sessions in order, running `learn` after each as the stop hook would, at the session's end. */
export async function replaySessions(
  store: Store,
  sessions: readonly TranscriptSession[],
  options: LearnOptions = {},
): Promise<LearnReport[]> {
  const reports: LearnReport[] = [];
  for (const session of sessions) {
    insertSession(store, session);
    reports.push(
      await runLearn(withClock(store, fixedClock(new Date(Date.parse(session.endedAt) + 60_000))), {
        render: renderAfterLearn,
        ...options,
      }),
    );
  }
  return reports;
}

/**
 * Observation rows (the brief's contract) checked and turned into the typed events the
 * miners read. A row with missing fields or absurd values is skipped with a reason, never
 * guessed at; the run counts it and still archives it so it cannot block later runs.
 */
import { DAY_MS } from '../core/clock.js';
import { EDIT_TOOLS, isShellTool } from '../core/domain.js';
import { isObj } from '../core/fields.js';
import type { ObservationRow, Outcome } from '../store/observations.js';

type ObsEvent = 'tool' | 'prompt' | 'session_start' | 'session_end';
const EVENTS: readonly ObsEvent[] = ['tool', 'prompt', 'session_start', 'session_end'];

export interface Obs {
  id: number;
  sessionId: string;
  /** Milliseconds since the epoch. */
  at: number;
  ts: string;
  event: ObsEvent;
  project: string;
  projectName: string;
  cwd: string;
  tool: string;
  intent: string;
  input: string;
  files: string[];
  outcome: Outcome;
  error: string;
  exitCode?: number;
  processed: boolean;
}

type Checked = { ok: true; obs: Obs } | { ok: false; reason: string };

/** Contract limits, with slack: capture truncates to these, so 10x means something is wrong. */
const MAX_INPUT = 40_000;
const MAX_ERROR = 5_000;
const MAX_FILES = 1_000;
const MAX_DURATION_MS = 7 * DAY_MS;
const EARLIEST = Date.parse('2000-01-01T00:00:00Z');

function parseArray(text: string): string[] | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) return undefined;
    return value;
  } catch {
    return undefined;
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isObj(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A piped command (`lint | tail`) exits with the pipe's last status; its reported findings say it failed. */
const pipeHidFailure = (row: ObservationRow): boolean =>
  isShellTool(row.tool ?? '') &&
  !!row.error &&
  /[^|]\|(?!\|)/.test(row.input ?? '') &&
  !/^(?:grep|rg|cat|sed|awk|git (?:log|show|diff))\b/.test(row.input ?? '');

export function checkObservation(row: ObservationRow, now: Date): Checked {
  const fail = (reason: string): Checked => ({ ok: false, reason });
  if (!row.session_id?.trim()) return fail('missing session_id');
  if (!row.tool_use_id?.trim()) return fail('missing tool_use_id');
  const at = Date.parse(row.ts);
  if (!row.ts || !Number.isFinite(at)) return fail('unparseable timestamp');
  if (at < EARLIEST || at > now.getTime() + DAY_MS) return fail('timestamp out of range');
  if (!(EVENTS as readonly string[]).includes(row.event)) return fail(`unknown event "${String(row.event).slice(0, 40)}"`);
  if (row.event === 'tool' && !row.tool?.trim()) return fail('tool event without a tool name');
  if (row.event === 'prompt' && !row.input?.trim()) return fail('prompt without text');
  if ((row.input?.length ?? 0) > MAX_INPUT) return fail('absurd input size');
  if ((row.error?.length ?? 0) > MAX_ERROR) return fail('absurd error size');
  const files = parseArray(row.files ?? '[]');
  if (!files) return fail('files is not a JSON array of strings');
  if (files.length > MAX_FILES) return fail('absurd number of files');
  const data = parseObject(row.data ?? '{}');
  if (!data) return fail('data is not a JSON object');
  if (row.duration_ms !== null && row.duration_ms !== undefined && (!(row.duration_ms >= 0) || row.duration_ms > MAX_DURATION_MS)) {
    return fail('absurd duration');
  }
  const exit = data.exit_code;
  const exitCode = typeof exit === 'number' && Number.isInteger(exit) ? exit : undefined;
  const outcome: Outcome =
    row.outcome === 'ok' && ((exitCode !== undefined && exitCode !== 0) || pipeHidFailure(row)) ? 'error' : row.outcome;
  return {
    ok: true,
    obs: {
      id: row.id,
      sessionId: row.session_id,
      at,
      ts: new Date(at).toISOString(),
      event: row.event as ObsEvent,
      project: row.project ?? '',
      projectName: typeof data.project_name === 'string' ? data.project_name : '',
      cwd: row.cwd ?? '',
      tool: row.tool ?? '',
      intent: row.intent ?? '',
      input: row.input ?? '',
      files,
      outcome,
      error: row.error ?? '',
      exitCode,
      processed: row.processed_at !== null,
    },
  };
}

export const isEdit = (o: Obs): boolean => o.event === 'tool' && EDIT_TOOLS.has(o.tool) && o.outcome === 'ok';
/** A shell command, whichever agent ran it (Claude Code's Bash, Gemini CLI's run_shell_command, Codex's shell). */
export const isBash = (o: Obs): boolean => o.event === 'tool' && isShellTool(o.tool);

/** A path relative to the session's working directory, or undefined when it lies outside it. */
export function relativeToCwd(file: string, cwd: string): string | undefined {
  if (!file) return undefined;
  if (!file.startsWith('/')) return file.replace(/^\.\//, '');
  const root = cwd.replace(/\/+$/, '');
  if (!root || !file.startsWith(`${root}/`)) return undefined;
  return file.slice(root.length + 1);
}

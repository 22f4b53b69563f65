/**
 * The one mapping from an agent's tool call (its input and its result) to an observation
 * row, shared by the live hooks and the transcript import. Pure: everything stored passes
 * through redaction and truncation here.
 */
import { contentId } from '../core/ids.js';
import type { ProjectInfo } from '../core/project.js';
import { redact } from '../core/redact.js';
import { truncate } from '../core/text.js';
import type { NewObservation, Outcome } from '../store/observations.js';
import { type ToolKind, baseCommand, exitCodeFrom, isBlockedError, isNoiseCommand, summariseError, toolKind } from './tools.js';

export const MAX_INPUT_CHARS = 2_000;
export const MAX_PROMPT_CHARS = 4_000;
export const MAX_ERROR_CHARS = 500;
/** Text is cut to this before redaction (redaction then sees everything that could be kept). */
const PRE_CUT = 16 * 1024;

export interface ToolCall {
  source: string;
  sessionId: string;
  toolUseId: string;
  ts: string;
  cwd: string;
  tool: string;
  input: unknown;
  response?: unknown;
  /** The agent reported the call as failed (PostToolUseFailure, is_error). */
  failed?: boolean;
  /** The error text the agent gave, if any. */
  error?: string;
  durationMs?: number;
  agentVersion?: string;
  project: ProjectInfo;
}

export type Mapped = { kind: 'record'; observation: NewObservation } | { kind: 'noise'; reason: string };

type Obj = Record<string, unknown>;

const clean = (text: string, max: number): string => truncate(redact(text.length > PRE_CUT ? text.slice(0, PRE_CUT) : text).trim(), max);

function asObject(value: unknown): Obj {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Obj;
  if (typeof value === 'string' && value.trimStart().startsWith('{')) {
    try {
      return asObject(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return {};
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The command of a shell call: a string, or an argv such as ["bash", "-lc", "make test"]. */
export function shellCommand(input: Obj): string {
  const c = input.command ?? input.cmd;
  if (typeof c === 'string') return c;
  if (Array.isArray(c)) {
    const parts = c.filter((x): x is string => typeof x === 'string');
    const shell = parts.findIndex((p) => p === '-c' || p === '-lc');
    return shell >= 0 && parts[shell + 1] !== undefined ? (parts[shell + 1] as string) : parts.join(' ');
  }
  return '';
}

/** Files named in an apply_patch body ("*** Update File: path"). */
export function patchFiles(patch: string): string[] {
  return [...patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map((m) => (m[1] ?? '').trim()).filter(Boolean);
}

function filePaths(kind: ToolKind, input: Obj): string[] {
  const one = str(input.file_path) ?? str(input.filePath) ?? str(input.absolute_path) ?? str(input.notebook_path) ?? str(input.target_file);
  if (one) return [one];
  if (Array.isArray(input.paths)) return input.paths.filter((p): p is string => typeof p === 'string');
  const patch = str(input.patch) ?? str(input.input);
  if (patch && patch.includes('*** ')) return patchFiles(patch);
  if ((kind === 'edit' || kind === 'write' || kind === 'read') && str(input.path)) return [input.path as string];
  return [];
}

/** Resolves a path against the call's cwd without touching the filesystem. */
export function absolutePath(path: string, cwd: string): string {
  if (path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || !cwd) return path;
  const parts = `${cwd.replace(/\/+$/, '')}/${path}`.split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '..') out.pop();
    else if (p !== '.' && p !== '') out.push(p);
  }
  return `/${out.join('/')}`;
}

function fileData(path: string | undefined): Obj {
  if (!path) return {};
  const filename = path.split(/[\\/]/).pop() ?? path;
  const dot = filename.lastIndexOf('.');
  return { filename, extension: dot > 0 ? filename.slice(dot + 1).toLowerCase() : '' };
}

interface ResultFacts {
  outcome: Outcome;
  error: string;
  exitCode?: number;
}

/** Outcome, error summary and exit code from the failure flag, the error text and the response. */
export function resultFacts(call: Pick<ToolCall, 'failed' | 'error' | 'response'>): ResultFacts {
  const response = asObject(call.response);
  const code =
    num(response.exit_code) ?? num(response.exitCode) ?? num(response.returnCode) ?? (call.error ? exitCodeFrom(call.error) : undefined);
  const responseError = str(response.error) ?? (response.success === false ? (str(response.message) ?? 'failed') : undefined);
  const failed = call.failed === true || (code !== undefined && code !== 0) || response.interrupted === true || responseError !== undefined;
  if (!failed) return { outcome: 'ok', error: '', ...(code !== undefined ? { exitCode: code } : {}) };
  const text = call.error ?? responseError ?? str(response.stderr) ?? (response.interrupted === true ? 'interrupted' : 'failed');
  return {
    outcome: isBlockedError(text) ? 'blocked' : 'error',
    error: clean(summariseError(text), MAX_ERROR_CHARS),
    ...(code !== undefined ? { exitCode: code } : {}),
  };
}

function duration(call: ToolCall): number | null {
  const response = asObject(call.response);
  const ms = num(call.durationMs) ?? num(response.durationMs) ?? num(response.duration_ms) ?? num(response.totalDurationMs);
  return ms !== undefined && ms >= 0 ? Math.round(ms) : null;
}

function summary(kind: ToolKind, tool: string, input: Obj, files: readonly string[]): { input: string; intent: string; data: Obj } {
  const description = str(input.description) ?? str(input.instruction) ?? str(input.explanation) ?? '';
  switch (kind) {
    case 'shell': {
      const command = shellCommand(input);
      return { input: command, intent: description, data: { base_command: baseCommand(command) } };
    }
    case 'edit':
    case 'write':
    case 'read': {
      const data = fileData(files[0]);
      if (Array.isArray(input.edits)) data.edits = input.edits.length;
      return { input: files.join(', '), intent: kind === 'read' ? '' : description, data };
    }
    case 'search': {
      const pattern = str(input.pattern) ?? str(input.query) ?? str(input.regex) ?? '';
      const where = str(input.path) ?? str(input.glob) ?? '';
      return { input: where ? `${pattern} in ${where}` : pattern, intent: '', data: { pattern } };
    }
    case 'task':
      return {
        input: str(input.prompt) ?? str(input.skill) ?? str(input.command) ?? '',
        intent: description,
        data: str(input.subagent_type) ? { subagent_type: input.subagent_type } : {},
      };
    case 'web':
      return { input: str(input.url) ?? str(input.query) ?? '', intent: str(input.prompt) ?? '', data: {} };
    default: {
      const server = /^mcp__(.+?)__/.exec(tool)?.[1];
      return {
        input: Object.keys(input).length ? JSON.stringify(input) : '',
        intent: description,
        data: server ? { mcp_server: server } : {},
      };
    }
  }
}

/** A tool call as an observation, or the reason it is noise. */
export function mapToolCall(call: ToolCall): Mapped {
  const kind = toolKind(call.tool);
  const input = asObject(call.input);
  const facts = resultFacts(call);
  const files = filePaths(kind, input).map((f) => absolutePath(f, call.cwd));
  const s = summary(kind, call.tool, input, files);
  if (facts.outcome === 'ok') {
    if (kind === 'bookkeeping' || kind === 'list') return { kind: 'noise', reason: `${call.tool} is bookkeeping` };
    if (kind === 'shell' && isNoiseCommand(s.input)) return { kind: 'noise', reason: `noisy command: ${s.data.base_command as string}` };
  }
  const data: Obj = { ...s.data, project_name: call.project.name };
  if (typeof data.pattern === 'string') data.pattern = clean(data.pattern, 500);
  if (facts.exitCode !== undefined) data.exit_code = facts.exitCode;
  if (call.agentVersion) data.agent_version = call.agentVersion;
  return {
    kind: 'record',
    observation: {
      source: call.source,
      session_id: call.sessionId,
      tool_use_id: call.toolUseId,
      ts: call.ts,
      event: 'tool',
      project: call.project.fingerprint,
      cwd: call.cwd,
      tool: call.tool,
      intent: clean(s.intent, 500),
      input: clean(s.input, MAX_INPUT_CHARS),
      files: files.map((f) => clean(f, 1000)),
      outcome: facts.outcome,
      error: facts.error,
      duration_ms: duration(call),
      data,
    },
  };
}

/** The stored form of a prompt: redacted and cut to MAX_PROMPT_CHARS. */
export const promptText = (prompt: string): string => clean(prompt, MAX_PROMPT_CHARS);

export interface PromptEvent {
  source: string;
  sessionId: string;
  ts: string;
  cwd: string;
  project: ProjectInfo;
  /** Already passed through promptText. */
  text: string;
  /** How many earlier prompts of this session had the same text: makes the id stable for replays. */
  occurrence: number;
}

/**
 * The id does not depend on the time, so a live hook and a later import of the same
 * transcript give the same prompt the same id.
 */
export function promptObservation(p: PromptEvent): NewObservation {
  return {
    source: p.source,
    session_id: p.sessionId,
    tool_use_id: `prompt:${contentId(p.sessionId, p.text, p.occurrence)}`,
    ts: p.ts,
    event: 'prompt',
    project: p.project.fingerprint,
    cwd: p.cwd,
    input: p.text,
    data: { project_name: p.project.name },
  };
}

export interface LifecycleEvent {
  source: string;
  sessionId: string;
  ts: string;
  cwd: string;
  project: ProjectInfo;
  /** startup | resume | clear | compact for a start; the end reason for an end. */
  reason?: string;
}

export function sessionStartObservation(e: LifecycleEvent): NewObservation {
  return {
    source: e.source,
    session_id: e.sessionId,
    tool_use_id: `session_start:${e.ts}`,
    ts: e.ts,
    event: 'session_start',
    project: e.project.fingerprint,
    cwd: e.cwd,
    input: clean(e.reason ?? '', 100),
    data: { project_name: e.project.name },
  };
}

export function sessionEndObservation(e: LifecycleEvent): NewObservation {
  return { ...sessionStartObservation(e), tool_use_id: 'session_end', event: 'session_end' };
}

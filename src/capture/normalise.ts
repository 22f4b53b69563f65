/**
 * Each agent's hook payload, normalised into one shape (HookInput). Claude Code and Codex
 * CLI send the same fields; Gemini CLI adds a timestamp and names tools its own way; Cursor
 * uses camelCase events, conversation ids and per-event fields. Parsing is lenient: a
 * missing or mistyped field becomes undefined, never an exception.
 */
import { contentId } from '../core/ids.js';
import type { Agent, HookInput } from './agents.js';
import { type Obj, isObj, num, str } from '../core/fields.js';
import { withoutControls } from '../core/text.js';
import { stripInjected } from './injected.js';

const GEMINI_EVENTS = new Set(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection']);

/** Guesses the agent from a payload when the command line does not say. */
export function detectAgent(payload: Obj): Agent {
  const event = str(payload.hook_event_name) ?? '';
  if (payload.conversation_id !== undefined || /^[a-z]/.test(event)) return 'cursor';
  if (GEMINI_EVENTS.has(event)) return 'gemini';
  if (payload.turn_id !== undefined) return 'codex';
  return 'claude-code';
}

/** The payload's timestamp as ISO-8601, or `fallback` when it is missing or unreadable. */
function validTs(value: unknown, fallback: string): string {
  const s = str(value);
  if (!s) return fallback;
  const t = Date.parse(s);
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

/** The user's prompt without any context Homunculus injected that the client echoed into it. */
function userPrompt(value: unknown): { prompt: string } | Record<string, never> {
  const text = str(value);
  const own = text ? stripInjected(withoutControls(text)) : '';
  return own ? { prompt: own } : {};
}

/** An id for a tool call the agent did not name, stable for the same call. */
const derivedId = (...parts: unknown[]): string =>
  `derived:${contentId(...parts.map((p) => (typeof p === 'string' ? p : (JSON.stringify(p) ?? ''))))}`;

/** Claude Code's payloads, which Codex CLI shares and Gemini CLI extends (a timestamp, its own tool names). */
function claudeLike(agent: Agent, p: Obj, now: string): HookInput {
  const event = str(p.hook_event_name) ?? '';
  const sessionId = str(p.session_id) ?? '';
  const ts = validTs(p.timestamp, now);
  const reason = str(p.source) ?? str(p.reason) ?? str(p.trigger);
  const input: HookInput = {
    agent,
    event,
    sessionId,
    cwd: str(p.cwd) ?? '',
    ts,
    ...(str(p.transcript_path) ? { transcriptPath: p.transcript_path as string } : {}),
    ...(str(p.version) ? { agentVersion: p.version as string } : {}),
    ...userPrompt(p.prompt),
    ...(reason ? { reason } : {}),
  };
  const name = str(p.tool_name);
  if (name) {
    const error = str(p.error) ?? (typeof p.error === 'object' && p.error !== null ? JSON.stringify(p.error) : undefined);
    input.tool = {
      name,
      input: p.tool_input,
      response: p.tool_response,
      failed: event === 'PostToolUseFailure' || error !== undefined || p.is_interrupt === true,
      ...(error ? { error } : p.is_interrupt === true ? { error: 'interrupted by user' } : {}),
      toolUseId: str(p.tool_use_id) ?? derivedId(sessionId, ts, name, p.tool_input),
      ...(num(p.duration_ms) !== undefined ? { durationMs: p.duration_ms as number } : {}),
    };
  }
  return input;
}

/** Cursor's payloads: camelCase events, conversation ids, and per-event fields instead of a tool call. */
/** The tool call an event describes: shell and file edits have their own fields; MCP calls name a tool. */
function cursorTool(event: string, p: Obj): { name: string; input: unknown; response?: unknown } | undefined {
  if (event === 'afterShellExecution')
    return {
      name: 'Shell',
      input: { command: p.command, cwd: p.cwd },
      response: { output: p.output, exit_code: p.exit_code ?? p.exitCode },
    };
  if (event === 'afterFileEdit') return { name: str(p.tool_name) ?? 'Edit', input: { file_path: p.file_path, edits: p.edits } };
  if (str(p.tool_name))
    return { name: p.tool_name as string, input: p.tool_input, response: p.result_json ?? p.tool_output ?? p.tool_response };
  return undefined;
}

function cursor(p: Obj, now: string): HookInput {
  const event = str(p.hook_event_name) ?? '';
  const sessionId = str(p.conversation_id) ?? str(p.session_id) ?? '';
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
  const reason = str(p.status) ?? str(p.reason);
  const input: HookInput = {
    agent: 'cursor',
    event,
    sessionId,
    cwd: str(p.cwd) ?? roots[0] ?? '',
    ts: validTs(p.timestamp, now),
    ...(str(p.cursor_version) ? { agentVersion: p.cursor_version as string } : {}),
    ...userPrompt(p.prompt),
    ...(reason ? { reason } : {}),
  };
  const tool = cursorTool(event, p);
  if (tool) {
    const error = str(p.error);
    input.tool = {
      name: tool.name,
      input: tool.input,
      response: tool.response,
      failed: error !== undefined,
      ...(error ? { error } : {}),
      toolUseId: str(p.tool_use_id) ?? derivedId(sessionId, str(p.generation_id) ?? '', event, tool.input),
      ...(num(p.duration) !== undefined ? { durationMs: p.duration as number } : {}),
    };
  }
  return input;
}

/** Normalises a parsed payload; `now` stands in for a missing timestamp. */
export function normalise(payload: unknown, agent: Agent | undefined, now: string): HookInput {
  const p = isObj(payload) ? payload : {};
  const who = agent ?? detectAgent(p);
  return who === 'cursor' ? cursor(p, now) : claudeLike(who, p, now);
}

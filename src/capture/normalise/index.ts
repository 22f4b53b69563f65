/**
 * Each agent's hook payload, normalised into one shape (HookInput). Claude Code and Codex
 * CLI send the same fields; Gemini CLI adds a timestamp and names tools its own way; Cursor
 * uses camelCase events, conversation ids and per-event fields. Parsing is lenient: a
 * missing or mistyped field becomes undefined, never an exception.
 */
import type { Agent, HookInput } from '../agents.js';
import { claudeLike } from './claude.js';
import { cursor } from './cursor.js';
import { type Obj, str } from '../fields.js';

const GEMINI_EVENTS = new Set(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'BeforeModel', 'AfterModel', 'BeforeToolSelection']);

/** Guesses the agent from a payload when the command line does not say. */
export function detectAgent(payload: Obj): Agent {
  const event = str(payload.hook_event_name) ?? '';
  if (payload.conversation_id !== undefined || /^[a-z]/.test(event)) return 'cursor';
  if (GEMINI_EVENTS.has(event)) return 'gemini';
  if (payload.turn_id !== undefined) return 'codex';
  return 'claude-code';
}

/** Normalises a parsed payload; `now` stands in for a missing timestamp. */
export function normalise(payload: unknown, agent: Agent | undefined, now: string): HookInput {
  const p = payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Obj) : {};
  const who = agent ?? detectAgent(p);
  return who === 'cursor' ? cursor(p, now) : claudeLike(who, p, now);
}

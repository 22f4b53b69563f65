/**
 * What a hook prints, in each agent's wire format. Context goes back as
 * hookSpecificOutput.additionalContext (Claude Code, Codex, Gemini) or additional_context
 * (Cursor); with nothing to say, Claude Code and Codex get no output at all, Gemini and
 * Cursor an empty JSON object (they parse stdout as JSON).
 */
import type { Agent, HookName } from '../capture/agents.js';
import { MEMORY_HEADER, markInjected } from '../capture/injected.js';

/** Claude Code's limit for injected context. */
const MAX_CONTEXT_CHARS = 10_000;

const DEFAULT_EVENT: Record<Agent, Record<HookName, string>> = {
  'claude-code': { observe: 'PostToolUse', recall: 'PostToolUse', start: 'SessionStart', prompt: 'UserPromptSubmit', stop: 'Stop' },
  codex: { observe: 'PostToolUse', recall: 'PostToolUse', start: 'SessionStart', prompt: 'UserPromptSubmit', stop: 'Stop' },
  gemini: { observe: 'AfterTool', recall: 'AfterTool', start: 'SessionStart', prompt: 'BeforeAgent', stop: 'SessionEnd' },
  cursor: { observe: 'afterFileEdit', recall: 'afterFileEdit', start: 'sessionStart', prompt: 'beforeSubmitPrompt', stop: 'stop' },
};

/** The event name to answer with: the payload's when it is one context can answer, else the hook's default. */
function answerEvent(agent: Agent, hook: HookName, event: string): string {
  const fallback = DEFAULT_EVENT[agent][hook];
  if (!event) return fallback;
  if (event === 'PostToolUseFailure') return 'PostToolUse';
  return event;
}

/** Blocks joined as one context, first ones first: a later block that would not fit whole is left out, never cut. */
export function withinOutput(blocks: readonly string[]): string {
  const room = MAX_CONTEXT_CHARS - MEMORY_HEADER.length - 1;
  return blocks.filter(Boolean).reduce((text, block) => {
    const joined = text ? `${text}\n\n${block}` : block;
    return joined.length <= room || !text ? joined : text;
  }, '');
}

export function formatOutput(agent: Agent, hook: HookName, event: string, context: string): string {
  // Marked, so an echo of it in a later prompt is recognised (capture/injected.ts); the mark counts toward the limit.
  const room = MAX_CONTEXT_CHARS - MEMORY_HEADER.length - 1;
  const text = markInjected(context.length > room ? context.slice(0, room) : context);
  if (agent === 'cursor') {
    if (hook === 'prompt') return JSON.stringify({ continue: true });
    return JSON.stringify(text ? { additional_context: text } : {});
  }
  if (!text) return agent === 'gemini' ? '{}' : '';
  return JSON.stringify({ hookSpecificOutput: { hookEventName: answerEvent(agent, hook, event), additionalContext: text } });
}

/**
 * Gemini CLI puts a start hook's context in front of the user's first message, and a resumed
 * session drops every message that begins with hook context: the prompt went with it. Its start
 * block is given with the first prompt instead, after the prompt, where a resume keeps it.
 */
export const startRidesFirstPrompt = (agent: Agent): boolean => agent === 'gemini';

/** The output when a hook has nothing to say (or failed). */
export const emptyOutput = (agent: Agent, hook: HookName): string => formatOutput(agent, hook, '', '');

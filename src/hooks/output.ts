/**
 * What a hook prints, in each agent's wire format. Context goes back as
 * hookSpecificOutput.additionalContext (Claude Code, Codex, Gemini) or additional_context
 * (Cursor); with nothing to say, Claude Code and Codex get no output at all, Gemini and
 * Cursor an empty JSON object (they parse stdout as JSON).
 */
import type { Agent, HookName } from '../capture/agents.js';

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

export function formatOutput(agent: Agent, hook: HookName, event: string, context: string): string {
  const text = context.length > MAX_CONTEXT_CHARS ? context.slice(0, MAX_CONTEXT_CHARS) : context;
  if (agent === 'cursor') {
    if (hook === 'prompt') return JSON.stringify({ continue: true });
    return JSON.stringify(text ? { additional_context: text } : {});
  }
  if (!text) return agent === 'gemini' ? '{}' : '';
  return JSON.stringify({ hookSpecificOutput: { hookEventName: answerEvent(agent, hook, event), additionalContext: text } });
}

/** The output when a hook has nothing to say (or failed). */
export const emptyOutput = (agent: Agent, hook: HookName): string => formatOutput(agent, hook, '', '');

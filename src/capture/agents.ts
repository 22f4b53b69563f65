/**
 * The agents Homunculus captures, the hooks it installs in them, and the one shape every
 * agent's hook payload is normalised into (normalise/).
 */

export const AGENTS = ['claude-code', 'codex', 'gemini', 'cursor'] as const;
export type Agent = (typeof AGENTS)[number];

export const HOOKS = ['observe', 'start', 'prompt', 'recall', 'stop'] as const;
export type HookName = (typeof HOOKS)[number];

interface ToolEvent {
  name: string;
  input: unknown;
  response?: unknown;
  failed: boolean;
  error?: string;
  toolUseId: string;
  durationMs?: number;
}

/** A hook payload of any agent, normalised. */
export interface HookInput {
  agent: Agent;
  /** The agent's own event name (PostToolUse, AfterTool, afterFileEdit ...), '' when absent. */
  event: string;
  sessionId: string;
  cwd: string;
  ts: string;
  transcriptPath?: string;
  agentVersion?: string;
  tool?: ToolEvent;
  prompt?: string;
  /** SessionStart source (startup, resume ...) or SessionEnd reason. */
  reason?: string;
}

/** Which hook each agent event runs when the command line names the event instead of the hook. */
const HOOK_BY_EVENT: Readonly<Record<string, HookName>> = {
  SessionStart: 'start',
  UserPromptSubmit: 'prompt',
  PostToolUse: 'observe',
  PostToolUseFailure: 'observe',
  Stop: 'stop',
  SessionEnd: 'stop',
  BeforeAgent: 'prompt',
  AfterTool: 'observe',
  AfterAgent: 'stop',
  sessionStart: 'start',
  beforeSubmitPrompt: 'prompt',
  afterShellExecution: 'observe',
  afterFileEdit: 'observe',
  afterMCPExecution: 'observe',
  postToolUse: 'observe',
  stop: 'stop',
  sessionEnd: 'stop',
};

/** Events whose `stop` means the session is over (not merely a turn). */
export const ENDING_EVENTS: ReadonlySet<string> = new Set(['SessionEnd', 'sessionEnd']);

export function hookForEvent(name: string): HookName | undefined {
  if ((HOOKS as readonly string[]).includes(name)) return name as HookName;
  return HOOK_BY_EVENT[name];
}

/** The hook command's usage: printed by the hook process and shown in the command line's help. */
export const HOOK_USAGE = `Usage: homunculus hook EVENT [--agent claude-code|codex|gemini|cursor] [--home DIR]

Runs one agent hook: reads the hook's JSON payload on stdin and prints the agent's
expected output. EVENT is observe, start, prompt, recall or stop, or the agent's own
event name (PostToolUse, SessionStart, UserPromptSubmit, Stop, SessionEnd, AfterTool,
BeforeAgent, afterFileEdit ...). Always exits 0; failures go to $HOMUNCULUS_HOME/logs/hooks.log.
Skipped when HOMUNCULUS_OBSERVER is set.
`;

/**
 * From a normalised hook input to the tool call observation to store, one way: redact the
 * call, map it (map/), redact the observation (redact.ts). The live hooks and the transcript
 * import share it; the caller
 * resolves the project once and passes it down. Prompts and a session's start and end are
 * built in session-events.ts.
 */
import type { ProjectInfo } from '../core/project.js';
import type { NewObservation } from '../store/observations.js';
import type { HookInput } from './agents.js';
import { mapToolCall } from './map/tool-call.js';
import { redactObservation, redactToolCall } from './redact.js';

/** An observation to write, or why there is none (noise, or no session, tool or prompt). */
export type Built = { observation: NewObservation } | { status: 'noise' | 'ignored'; detail: string };

export const NO_SESSION: Built = { status: 'ignored', detail: 'no session id in the payload' };

export function toolObservation(input: HookInput, project: ProjectInfo): Built {
  if (!input.tool) return { status: 'ignored', detail: 'no tool_name in the payload' };
  if (!input.sessionId) return NO_SESSION;
  const tool = redactToolCall(input.tool);
  const mapped = mapToolCall({
    source: input.agent,
    sessionId: input.sessionId,
    toolUseId: tool.toolUseId,
    ts: input.ts,
    cwd: input.cwd,
    tool: tool.name,
    input: tool.input,
    response: tool.response,
    failed: tool.failed,
    error: tool.error,
    durationMs: tool.durationMs,
    agentVersion: input.agentVersion,
    project,
  });
  return mapped.kind === 'noise' ? { status: 'noise', detail: mapped.reason } : { observation: redactObservation(mapped.observation) };
}

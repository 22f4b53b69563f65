/**
 * The agent learns like any other agent: each message it is given and each tool call it
 * makes become observations with source `homunculus-agent`, built by the same mapping and
 * redaction as the hooks' (capture/), so the learning pipeline mines them unchanged.
 */
import type { ProjectInfo } from '../core/project.js';
import { mapToolCall } from '../capture/map/tool-call.js';
import { promptText, redactObservation, redactToolCall } from '../capture/redact.js';
import { promptObservation } from '../capture/session-events.js';
import { upsertSession } from '../capture/sessions/summary.js';
import type { Store } from '../store/store.js';
import { isScheduled } from './scheduled.js';

export const AGENT_SOURCE = 'homunculus-agent';

export interface AgentEventBase {
  session: string;
  ts: string;
  /** The workspace: the agent's "project". */
  cwd: string;
  project: ProjectInfo;
}

/**
 * Records a person's message; `occurrence` counts earlier identical messages of the session.
 * A scheduled job's message is no one's words: learning would take a daily job for a habit.
 */
export function observePrompt(store: Pick<Store, 'observations'>, e: AgentEventBase & { text: string; occurrence: number }): boolean {
  if (isScheduled(e.session)) return false;
  const o = promptObservation({
    source: AGENT_SOURCE,
    sessionId: e.session,
    ts: e.ts,
    cwd: e.cwd,
    project: e.project,
    text: promptText(e.text),
    occurrence: e.occurrence,
  });
  return store.observations.insert(redactObservation(o));
}

export interface ToolCallEvent extends AgentEventBase {
  toolCallId: string;
  tool: string;
  input: unknown;
  output?: unknown;
  error?: string;
  durationMs?: number;
}

/** Records a tool call and its outcome (a refusal is recorded as an error); false when it is noise or already stored. */
export function observeToolCall(store: Pick<Store, 'observations'>, e: ToolCallEvent): boolean {
  const tool = redactToolCall({
    name: e.tool,
    input: e.input,
    response: e.output,
    failed: e.error !== undefined,
    ...(e.error !== undefined ? { error: e.error } : {}),
    toolUseId: e.toolCallId,
    ...(e.durationMs !== undefined ? { durationMs: e.durationMs } : {}),
  });
  const mapped = mapToolCall({
    source: AGENT_SOURCE,
    sessionId: e.session,
    toolUseId: tool.toolUseId,
    ts: e.ts,
    cwd: e.cwd,
    tool: tool.name,
    input: tool.input,
    response: tool.response,
    failed: tool.failed,
    ...(tool.error !== undefined ? { error: tool.error } : {}),
    project: e.project,
  });
  return mapped.kind === 'record' && store.observations.insert(redactObservation(mapped.observation));
}

/** Records the end of a conversation, so learning takes the session without waiting for it to go idle. */
export function observeSessionEnd(store: Pick<Store, 'observations'>, e: AgentEventBase): boolean {
  return store.observations.insert(
    redactObservation({
      source: AGENT_SOURCE,
      session_id: e.session,
      tool_use_id: 'session_end',
      ts: e.ts,
      event: 'session_end',
      project: e.project.fingerprint,
      cwd: e.cwd,
      data: { project_name: e.project.name },
    }),
  );
}

/**
 * The session's summary row brought up to date, as the Stop hook keeps a coding agent's: the
 * dashboard lists sessions from it.
 */
export function summariseSession(store: Store, e: AgentEventBase): void {
  upsertSession(store, { source: AGENT_SOURCE, sessionId: e.session, cwd: e.cwd, project: e.project, endedAt: e.ts });
}

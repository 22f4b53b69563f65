/**
 * Normalised hook events as observations: the step the live hooks and the transcript import
 * share. Builders are pure; the record* functions write, idempotent on
 * (source, session_id, tool_use_id).
 */
import { type ProjectInfo, detectProject } from '../core/project.js';
import type { NewObservation } from '../store/observations.js';
import type { Store } from '../store/store.js';
import type { HookInput } from './agents.js';
import { mapToolCall, promptObservation, promptText, sessionEndObservation, sessionStartObservation } from './observation.js';

export type RecordStatus = 'recorded' | 'duplicate' | 'noise' | 'ignored';

export interface RecordResult {
  status: RecordStatus;
  detail?: string;
  observation?: NewObservation;
}

/** An observation to write, or why there is none (noise, or no session, tool or prompt). */
export type Built = { observation: NewObservation } | { status: 'noise' | 'ignored'; detail: string };

const projects = new Map<string, ProjectInfo>();
/** detectProject, remembered per directory: an import asks thousands of times for the same few. */
function projectOf(cwd: string): ProjectInfo {
  let p = projects.get(cwd);
  if (!p) {
    p = detectProject(cwd);
    if (projects.size > 1000) projects.clear();
    projects.set(cwd, p);
  }
  return p;
}

const NO_SESSION: Built = { status: 'ignored', detail: 'no session id in the payload' };

export function toolObservation(input: HookInput): Built {
  const tool = input.tool;
  if (!tool) return { status: 'ignored', detail: 'no tool_name in the payload' };
  if (!input.sessionId) return NO_SESSION;
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
    project: projectOf(input.cwd),
  });
  return mapped.kind === 'noise' ? { status: 'noise', detail: mapped.reason } : { observation: mapped.observation };
}

/** A typed prompt; `occurrence` counts earlier prompts of this session with the same stored text. */
export function promptObservationFor(input: HookInput, occurrence: number): Built {
  if (!input.sessionId) return NO_SESSION;
  const text = promptText(input.prompt ?? '');
  if (!text) return { status: 'ignored', detail: 'empty prompt' };
  return {
    observation: promptObservation({
      source: input.agent,
      sessionId: input.sessionId,
      ts: input.ts,
      cwd: input.cwd,
      project: projectOf(input.cwd),
      text,
      occurrence,
    }),
  };
}

export function lifecycleObservation(input: HookInput, kind: 'start' | 'end'): Built {
  if (!input.sessionId) return NO_SESSION;
  const event = {
    source: input.agent,
    sessionId: input.sessionId,
    ts: input.ts,
    cwd: input.cwd,
    project: projectOf(input.cwd),
    reason: input.reason,
  };
  return { observation: kind === 'start' ? sessionStartObservation(event) : sessionEndObservation(event) };
}

/** Writes a built observation: recorded, or a duplicate of one already stored. */
export function write(store: Pick<Store, 'observations'>, built: Built): RecordResult {
  if (!('observation' in built)) return built;
  return { status: store.observations.insert(built.observation) ? 'recorded' : 'duplicate', observation: built.observation };
}

export const recordToolCall = (store: Store, input: HookInput): RecordResult => write(store, toolObservation(input));

/** How many earlier prompts of this session have this exact stored text. */
function promptOccurrences(store: Store, input: HookInput, text: string): number {
  return store.observations.promptsBefore(input.agent, input.sessionId, text, input.ts);
}

/**
 * A live prompt. Counting the same text stored earlier gives the n-th identical prompt the
 * id an import of the transcript gives it; a replay of the same event (same time) gets the
 * same id again.
 */
export function recordPrompt(store: Store, input: HookInput): RecordResult {
  return write(store, promptObservationFor(input, promptOccurrences(store, input, promptText(input.prompt ?? ''))));
}

export const recordLifecycle = (store: Store, input: HookInput, kind: 'start' | 'end'): RecordResult =>
  write(store, lifecycleObservation(input, kind));

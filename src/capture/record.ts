/**
 * Writing built observations (build.ts) through the store's observations repository,
 * idempotent on (source, session_id, tool_use_id).
 */
import type { ProjectInfo } from '../core/project.js';
import type { NewObservation } from '../store/observations.js';
import { isBusyError, type Store } from '../store/store.js';
import type { HookInput } from './agents.js';
import { type Built, toolObservation } from './build.js';
import { codexTrailingPatches, eachRolloutCall } from './codex-rollout.js';
import { promptText } from './redact.js';
import { lifecycleObservation, promptObservationFor } from './session-events.js';
import { spoolObservation } from './spool/write.js';

type RecordStatus = 'recorded' | 'duplicate' | 'spooled' | 'noise' | 'ignored';

interface RecordResult {
  status: RecordStatus;
  detail?: string;
  observation?: NewObservation;
}

/**
 * Writes a built observation: recorded, or a duplicate of one already stored. While another process
 * keeps the database locked it goes to the spool, as the observe hook's calls do, for the next drain.
 */
export function write(store: Pick<Store, 'observations' | 'paths'>, built: Built): RecordResult {
  if (!('observation' in built)) return built;
  const observation = built.observation;
  try {
    return { status: store.observations.insert(observation) ? 'recorded' : 'duplicate', observation };
  } catch (err) {
    if (!isBusyError(err)) throw err;
    spoolObservation(store.paths.home, observation);
    return { status: 'spooled', observation };
  }
}

/** Records the call (with, for Codex, the patches its hooks never saw); says what became of the call itself. */
export function recordToolCall(store: Store, input: HookInput, project: ProjectInfo): RecordResult {
  return eachRolloutCall(input, (call) => write(store, toolObservation(call, project)));
}

/** At a turn's end: the patches Codex applied after the turn's last call (none elsewhere); how many are new. */
export function recordTrailingPatches(store: Store, input: HookInput, project: ProjectInfo): number {
  return codexTrailingPatches(input).filter((patch) => write(store, toolObservation(patch, project)).status === 'recorded').length;
}

/**
 * A live prompt. Counting the same text stored earlier gives the n-th identical prompt the
 * id an import of the transcript gives it; a replay of the same event (same time) gets the
 * same id again.
 */
export function recordPrompt(store: Store, input: HookInput, project: ProjectInfo): RecordResult {
  const earlier = store.observations.promptsBefore(input.agent, input.sessionId, promptText(input.prompt ?? ''), input.ts);
  return write(store, promptObservationFor(input, project, earlier));
}

export const recordLifecycle = (store: Store, input: HookInput, project: ProjectInfo, kind: 'start' | 'end'): RecordResult =>
  write(store, lifecycleObservation(input, project, kind));

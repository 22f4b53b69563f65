/**
 * Writing normalised hook events as observations: the step the live hooks and the
 * transcript import share. Every write is idempotent on (source, session_id, tool_use_id).
 */
import { projectInfo } from '../core/project.js';
import type { Db } from '../store/db.js';
import { type NewObservation, insertObservation } from '../store/observations.js';
import type { HookInput } from './agents.js';
import { mapToolCall, promptObservation, promptText, sessionEndObservation, sessionStartObservation } from './observation.js';

export type RecordStatus = 'recorded' | 'duplicate' | 'noise' | 'ignored';

export interface RecordResult {
  status: RecordStatus;
  detail?: string;
  observation?: NewObservation;
}

const insert = (db: Db, observation: NewObservation): RecordResult => ({
  status: insertObservation(db, observation) ? 'recorded' : 'duplicate',
  observation,
});

/** A tool call's observation (pure: nothing written), or why there is none: noise, or no session or tool. */
export function toolObservation(input: HookInput): { observation: NewObservation } | { status: 'noise' | 'ignored'; detail: string } {
  const tool = input.tool;
  if (!tool) return { status: 'ignored', detail: 'no tool_name in the payload' };
  if (!input.sessionId) return { status: 'ignored', detail: 'no session id in the payload' };
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
    project: projectInfo(input.cwd),
  });
  return mapped.kind === 'noise' ? { status: 'noise', detail: mapped.reason } : { observation: mapped.observation };
}

/** A tool call written straight to the database: recorded, a duplicate, noise, or ignored. */
export function recordToolCall(db: Db, input: HookInput): RecordResult {
  const r = toolObservation(input);
  return 'observation' in r ? insert(db, r.observation) : r;
}

/** How many prompts of this session already have this exact stored text. */
function promptOccurrences(db: Db, source: string, sessionId: string, text: string): number {
  const row = db
    .prepare("SELECT COUNT(*) AS n FROM observations WHERE source = ? AND session_id = ? AND event = 'prompt' AND input = ?")
    .get(source, sessionId, text) as { n: number };
  return row.n;
}

/**
 * A typed prompt. `occurrence` is given by a replay that counts in order; a live hook
 * counts what is stored, so both give the n-th identical prompt the same id.
 */
export function recordPrompt(db: Db, input: HookInput, occurrence?: number): RecordResult {
  if (!input.sessionId) return { status: 'ignored', detail: 'no session id in the payload' };
  const text = promptText(input.prompt ?? '');
  if (!text) return { status: 'ignored', detail: 'empty prompt' };
  const n = occurrence ?? promptOccurrences(db, input.agent, input.sessionId, text);
  return insert(
    db,
    promptObservation({ source: input.agent, sessionId: input.sessionId, ts: input.ts, cwd: input.cwd, project: projectInfo(input.cwd), text, occurrence: n }),
  );
}

export function recordLifecycle(db: Db, input: HookInput, kind: 'start' | 'end'): RecordResult {
  if (!input.sessionId) return { status: 'ignored', detail: 'no session id in the payload' };
  const event = { source: input.agent, sessionId: input.sessionId, ts: input.ts, cwd: input.cwd, project: projectInfo(input.cwd), reason: input.reason };
  return insert(db, kind === 'start' ? sessionStartObservation(event) : sessionEndObservation(event));
}

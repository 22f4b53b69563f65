/**
 * A typed prompt, and a session's start and end, as observations built from a normalised
 * hook input: the small events beside tool calls (build.ts). A prompt's text is redacted
 * first, because its id is made from the stored text.
 */
import { contentId } from '../core/ids.js';
import type { ProjectInfo } from '../core/project.js';
import type { NewObservation } from '../store/observations.js';
import type { HookInput } from './agents.js';
import { type Built, NO_SESSION } from './build.js';
import { promptText, redactObservation } from './redact.js';

interface PromptEvent {
  source: string;
  sessionId: string;
  ts: string;
  cwd: string;
  project: ProjectInfo;
  /** Already redacted and cut (promptText): the id is made from the stored text. */
  text: string;
  /** How many earlier prompts of this session had the same text: makes the id stable for replays. */
  occurrence: number;
}

/**
 * The id does not depend on the time, so a live hook and a later import of the same
 * transcript give the same prompt the same id.
 */
export function promptObservation(p: PromptEvent): NewObservation {
  return {
    source: p.source,
    session_id: p.sessionId,
    tool_use_id: `prompt:${contentId(p.sessionId, p.text, p.occurrence)}`,
    ts: p.ts,
    event: 'prompt',
    project: p.project.fingerprint,
    cwd: p.cwd,
    input: p.text,
    data: { project_name: p.project.name },
  };
}

/** A typed prompt; `occurrence` counts earlier prompts of this session with the same stored text. */
export function promptObservationFor(input: HookInput, project: ProjectInfo, occurrence: number): Built {
  if (!input.sessionId) return NO_SESSION;
  const text = promptText(input.prompt ?? '');
  if (!text) return { status: 'ignored', detail: 'empty prompt' };
  return {
    observation: redactObservation(
      promptObservation({
        source: input.agent,
        sessionId: input.sessionId,
        ts: input.ts,
        cwd: input.cwd,
        project,
        text,
        occurrence,
      }),
    ),
  };
}

/** A session's start (its reason: startup, resume ...) or end; redacted like every stored field. */
export function lifecycleObservation(input: HookInput, project: ProjectInfo, kind: 'start' | 'end'): Built {
  if (!input.sessionId) return NO_SESSION;
  const start: NewObservation = {
    source: input.agent,
    session_id: input.sessionId,
    tool_use_id: `session_start:${input.ts}`,
    ts: input.ts,
    event: 'session_start',
    project: project.fingerprint,
    cwd: input.cwd,
    input: input.reason ?? '',
    data: { project_name: project.name },
  };
  return { observation: redactObservation(kind === 'start' ? start : { ...start, tool_use_id: 'session_end', event: 'session_end' }) };
}

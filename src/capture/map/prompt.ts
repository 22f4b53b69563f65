/** A typed prompt as an observation. */
import { contentId } from '../../core/ids.js';
import type { ProjectInfo } from '../../core/project.js';
import type { NewObservation } from '../../store/observations.js';

export interface PromptEvent {
  source: string;
  sessionId: string;
  ts: string;
  cwd: string;
  project: ProjectInfo;
  /** Already redacted and cut (redact.ts promptText): the id is made from the stored text. */
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

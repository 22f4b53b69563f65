/** A session's start and end as observations (the reason is raw text: redact.ts cleans it). */
import type { ProjectInfo } from '../../core/project.js';
import type { NewObservation } from '../../store/observations.js';

export interface LifecycleEvent {
  source: string;
  sessionId: string;
  ts: string;
  cwd: string;
  project: ProjectInfo;
  /** startup | resume | clear | compact for a start; the end reason for an end. */
  reason?: string;
}

export function sessionStartObservation(e: LifecycleEvent): NewObservation {
  return {
    source: e.source,
    session_id: e.sessionId,
    tool_use_id: `session_start:${e.ts}`,
    ts: e.ts,
    event: 'session_start',
    project: e.project.fingerprint,
    cwd: e.cwd,
    input: e.reason ?? '',
    data: { project_name: e.project.name },
  };
}

export function sessionEndObservation(e: LifecycleEvent): NewObservation {
  return { ...sessionStartObservation(e), tool_use_id: 'session_end', event: 'session_end' };
}

/**
 * The stop hook's capture: at the end of a turn (Stop) the session's summary row and file
 * are brought up to date; at the end of the session (SessionEnd) its end is recorded first
 * and the files of old sessions move to the archive.
 */
import type { ProjectInfo } from '../../core/project.js';
import type { Store } from '../../store/store.js';
import { ENDING_EVENTS, type HookInput } from '../agents.js';
import { recordLifecycle } from '../record.js';
import { archiveSessions, renderSessionFile } from './files.js';
import { type SavedSession, upsertSession } from './summary.js';

interface ClosedTurn {
  /** The session ended, rather than a turn. */
  ending: boolean;
  /** Undefined when the session has no observations at all. */
  session?: SavedSession;
}

/** Undefined when the payload names no session. */
export function closeTurn(store: Store, input: HookInput, project: ProjectInfo): ClosedTurn | undefined {
  if (!input.sessionId) return undefined;
  const ending = ENDING_EVENTS.has(input.event);
  // A session that ends with nothing recorded and no row was never one (`claude mcp list` fires SessionEnd alone).
  if (ending && !store.observations.hasSession(input.agent, input.sessionId) && !store.sessions.get(input.sessionId)) return { ending };
  if (ending) recordLifecycle(store, input, project, 'end');
  const session = upsertSession(store, {
    source: input.agent,
    sessionId: input.sessionId,
    cwd: input.cwd,
    project,
    endedAt: input.ts,
    ...(input.transcriptPath ? { transcriptPath: input.transcriptPath } : {}),
  });
  if (session) renderSessionFile(store, session.row);
  if (ending) archiveSessions(store);
  return { ending, ...(session ? { session } : {}) };
}

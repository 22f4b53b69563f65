/**
 * Sessions whose stop hook could not write (another process held the database past the
 * hook's budget): their tool calls came in through the spool, their summary never did, so
 * no "Last session" line or recall knew them. The learning run gives each one its summary
 * once it has been idle a while (a session still running gets its own at its next stop).
 */
import { detectProject } from '../../core/project.js';
import type { Store } from '../../store/store.js';
import { renderSessionFile } from './files.js';
import { upsertSession } from './summary.js';

/** How long a session without a summary must have been quiet before the learning run writes one. */
export const LEFT_OPEN_IDLE_MS = 60 * 60 * 1000;

/** Summarises the pending sessions that have none and have been idle `idleMs`; returns how many. */
export function summariseLeftOpen(store: Store, idleMs = LEFT_OPEN_IDLE_MS): number {
  const before = new Date(store.clock.now().getTime() - idleMs).toISOString();
  let names: Map<string, string> | undefined;
  let saved = 0;
  for (const id of store.observations.pendingSessions()) {
    if (store.sessions.get(id)) continue;
    const last = store.observations.forSession(id).at(-1);
    if (!last || last.ts > before) continue;
    names ??= new Map(store.sessions.projects().map((p) => [p.project, p.project_name]));
    const name = names.get(last.project) || detectProject(last.cwd).name;
    const session = upsertSession(store, {
      source: last.source,
      sessionId: id,
      cwd: last.cwd,
      project: { fingerprint: last.project, name, root: last.cwd, remote: null },
      endedAt: last.ts,
    });
    if (!session) continue;
    renderSessionFile(store, session.row);
    saved++;
  }
  return saved;
}

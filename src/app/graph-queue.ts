/**
 * Sessions learned but not yet in the graph, kept in the store. A session joins the list in
 * the transaction that learns it and leaves it in the transaction that writes its facts, so
 * a crash between the two (or during the graph step) leaves it listed, and the next run
 * builds it: no session's knowledge is lost, none is built twice.
 */
import { parseStringArray } from '../store/json.js';
import type { Store } from '../store/store.js';

const KEY = 'graph.pending_sessions';

export function pendingGraphSessions(store: Store): string[] {
  return parseStringArray(store.meta.read(KEY) ?? '[]');
}

function save(store: Store, sessions: readonly string[]): void {
  store.meta.write(KEY, JSON.stringify(sessions));
}

export function queueGraphSession(store: Store, sessionId: string): void {
  const pending = pendingGraphSessions(store);
  if (!pending.includes(sessionId)) save(store, [...pending, sessionId]);
}

export function graphSessionDone(store: Store, sessionId: string): void {
  const pending = pendingGraphSessions(store);
  if (pending.includes(sessionId))
    save(
      store,
      pending.filter((id) => id !== sessionId),
    );
}

/**
 * What a local server answers when an operation throws, as one pure rule for the dashboard and
 * the gateway: a bad input is the client's (400), a missing record 404, a record that cannot
 * change that way now 409 (with its fix), a database another process holds or any other failure of ours that
 * says its fix 503 with that fix. Undefined for a bug: the server says 500 and logs it.
 */
import { HomunculusError, UsageError } from './errors.js';

export interface Refusal {
  status: 400 | 404 | 409 | 503;
  error: string;
}

/**
 * Errors that say the record cannot change that way now (a fact already closed, an episodic one,
 * a session waiting for a yes or no, an instinct named by a key merged into another, an edit
 * started from text changed since).
 */
const CONFLICTS = new Set(['fact_closed', 'immutable', 'waiting', 'merged', 'stale']);

const BUSY = 'The database is busy: another process holds it (a long sync or learn run). Try again in a moment.';

export function refusalOf(err: unknown): Refusal | undefined {
  if (err instanceof UsageError) return { status: 400, error: err.message };
  if (err instanceof HomunculusError) {
    if (err.code === 'not_found') return { status: 404, error: err.message };
    if (CONFLICTS.has(err.code)) return { status: 409, error: err.hint ? `${err.message} ${err.hint}` : err.message };
    return { status: 503, error: err.hint ? `${err.message} ${err.hint}` : err.message };
  }
  if (/^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown } | null)?.code))) return { status: 503, error: BUSY };
  return undefined;
}

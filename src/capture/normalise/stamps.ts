/** The when and the which of a payload: its timestamp, and an id for a tool call the agent did not name. */
import { contentId } from '../../core/ids.js';
import { str } from '../fields.js';

/** The payload's timestamp as ISO-8601, or `fallback` when it is missing or unreadable. */
export function validTs(value: unknown, fallback: string): string {
  const s = str(value);
  if (!s) return fallback;
  const t = Date.parse(s);
  return Number.isNaN(t) ? fallback : new Date(t).toISOString();
}

/** An id for a tool call the agent did not name, stable for the same call. */
export const derivedId = (...parts: unknown[]): string =>
  `derived:${contentId(...parts.map((p) => (typeof p === 'string' ? p : (JSON.stringify(p) ?? ''))))}`;

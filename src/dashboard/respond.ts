/** How every dashboard route answers: an operation's result as JSON, what it refused with its message. */
import type { Context } from 'hono';
import { UsageError } from '../core/errors.js';
import { refusalOf } from '../core/refusal.js';

export const refuse = (c: Context, status: 400 | 401 | 403 | 404 | 409 | 413 | 500 | 503, error: string) => c.json({ error }, status);

/**
 * An operation's answer as JSON; what it refused as refusalOf says (400, 404, 409, or a 503
 * with the fix the page can show); a bug as a 500, its error told on the terminal.
 */
export async function answer(c: Context, run: () => unknown) {
  try {
    return c.json(await run());
  } catch (err) {
    const refusal = refusalOf(err);
    if (refusal) return refuse(c, refusal.status, refusal.error);
    process.stderr.write(
      `homunculus dashboard: ${c.req.method} ${c.req.path} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    return refuse(c, 500, 'The dashboard could not answer; the terminal that runs it says why.');
  }
}

export async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new UsageError('The body must be a JSON object.');
  }
}

/** The body as an object, for an operation to validate its fields. */
export async function jsonObject(c: Context): Promise<object> {
  const body = await jsonBody(c);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new UsageError('The body must be a JSON object.');
  return body;
}

/** A whole-number query parameter within [1, max], or its default when absent; anything else is refused. */
export function limitParam(c: Context, name: string, fallback: number, max: number): number {
  const raw = c.req.query(name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, not "${raw.slice(0, 40)}".`);
  return n;
}

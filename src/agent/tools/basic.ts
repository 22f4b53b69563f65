/** echo and datetime_now: the two tools with no side effects. */
import { z } from 'zod';
import { UsageError } from '../../core/errors.js';
import { clockOf, defineTool } from './registry.js';

export const echo = defineTool({
  name: 'echo',
  description: 'Echo the text back (for testing that tools work).',
  input: z.object({ text: z.string().max(10_000) }).strict(),
  trust: 'trusted',
  confirm: false,
  run: (_ctx, input) => ({ text: input.text }),
});

/** Whether `zone` is an IANA time zone this runtime knows. Pure. */
function knownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const datetimeNow = defineTool({
  name: 'datetime_now',
  description: 'The current date and time: UTC, and local time in an IANA time zone (default UTC).',
  input: z.object({ timezone: z.string().max(64).optional() }).strict(),
  trust: 'trusted',
  confirm: false,
  run: (ctx, input) => {
    const zone = input.timezone ?? 'UTC';
    if (!knownZone(zone))
      throw new UsageError(`Unknown time zone ${JSON.stringify(zone)}.`, 'Use an IANA name such as "Europe/Paris" or "UTC".');
    const now = clockOf(ctx).now();
    const local = new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'medium' }).format(now);
    const weekday = new Intl.DateTimeFormat('en-US', { timeZone: zone, weekday: 'long' }).format(now);
    return { utc: now.toISOString(), local, weekday, timezone: zone, unix: Math.floor(now.getTime() / 1000) };
  },
});

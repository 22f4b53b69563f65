/**
 * Time for the scheduler, pure around croner: whether a cron expression and an IANA zone
 * are valid, when a job runs next after a given instant (croner walks the zone's wall
 * clock, so a daily 09:00 stays 09:00 across a DST change), and whether an instant falls
 * in the quiet hours, with the instant they end. Nothing here reads the clock.
 */
import { Cron } from 'croner';
import type { QuietHours } from './config.js';
import { counted } from '../../core/text.js';

export const CRON_EXAMPLE = '"0 9 * * 1-5" (09:00 on weekdays) or "*/30 * * * *" (every 30 minutes)';

/** Whether `zone` is an IANA time zone this runtime knows. Pure. */
export function isTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const cronOf = (expression: string, timeZone: string): Cron => new Cron(expression, { timezone: timeZone, paused: true });

/** Why `expression` in `timeZone` cannot be scheduled (with what to write instead); undefined when it can. Pure. */
export function scheduleProblem(expression: string, timeZone: string): string | undefined {
  if (!isTimeZone(timeZone))
    return `The time zone ${JSON.stringify(timeZone)} is not an IANA time zone. Use one such as "Europe/Paris", "America/New_York" or "UTC".`;
  // croner also reads six fields (seconds first) and nicknames (@daily); the scheduler takes five, as its docs say.
  const fields = expression.trim().split(/\s+/).length;
  if (fields !== 5) return invalid(expression, `it has ${counted(fields, 'field')}`);
  try {
    if (cronOf(expression, timeZone).nextRun() === null) return `The cron expression ${JSON.stringify(expression)} never runs again.`;
    return undefined;
  } catch (err) {
    return invalid(expression, (err as Error).message.replace(/^CronPattern:\s*/, ''));
  }
}

const invalid = (expression: string, why: string): string =>
  `The cron expression ${JSON.stringify(expression)} is not valid (${why}). Use five fields (minute hour day month weekday), e.g. ${CRON_EXAMPLE}.`;

/** The first run strictly after `after`, or null when there is none. Pure. */
export function nextRunAfter(expression: string, timeZone: string, after: Date): Date | null {
  return cronOf(expression, timeZone).nextRun(after);
}

/** "HH:MM" of `at` on the wall clock of `timeZone`. Pure. */
export function wallClock(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('hour')}:${get('minute')}`;
}

/** When the quiet hours holding `at` end; undefined when `at` is outside them. Pure. */
export function quietUntil(at: Date, quiet: QuietHours | undefined): Date | undefined {
  if (!quiet) return undefined;
  const now = wallClock(at, quiet.timeZone);
  const inside = quiet.start < quiet.end ? now >= quiet.start && now < quiet.end : now >= quiet.start || now < quiet.end;
  if (!inside) return undefined;
  const [hour, minute] = quiet.end.split(':').map(Number) as [number, number];
  return nextRunAfter(`${minute} ${hour} * * *`, quiet.timeZone, at) ?? undefined;
}

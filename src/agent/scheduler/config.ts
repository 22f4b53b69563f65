/**
 * The scheduler's keys of config.json's `agent` section: the heartbeat's interval, the quiet
 * hours (in the user's time zone) and the notification rate limit. Added to the agent
 * config schema in ../config.ts, which reports errors with the field and an example.
 */
import { z } from 'zod';
import { isTimeZone } from './cron.js';

const DURATION = /^(\d+)\s*(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "30m" as milliseconds; undefined when it is not a whole number of s, m, h or d. Pure. */
export function durationMs(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms > 0 ? ms : undefined;
}

const timeZone = z.string().refine(isTimeZone, 'must be an IANA time zone such as "Europe/Paris" or "UTC"');
const clockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day as HH:MM, e.g. "22:00"');

export const heartbeatSchema = z
  .object({
    enabled: z.boolean().default(true),
    every: z
      .string()
      .refine((t) => (durationMs(t) ?? 0) >= 60_000, 'must be an interval of at least a minute such as "30m", "2h" or "1d"')
      .default('30m'),
  })
  .strict();

export const quietHoursSchema = z
  .object({ start: clockTime, end: clockTime, timeZone: timeZone.default('UTC') })
  .strict()
  .refine((q) => q.start !== q.end, { message: 'start and end must differ (e.g. "22:00" to "07:00")', path: ['end'] });

export const notificationsSchema = z.object({ perHour: z.number().int().min(1).max(1_000).default(10) }).strict();

export type HeartbeatConfig = z.infer<typeof heartbeatSchema>;
export type QuietHours = z.infer<typeof quietHoursSchema>;
export type NotificationsConfig = z.infer<typeof notificationsSchema>;

/** The scheduler's fields of the agent config schema. */
export const schedulerConfigFields = {
  heartbeat: heartbeatSchema.default({ enabled: true, every: '30m' }),
  quietHours: quietHoursSchema.optional(),
  notifications: notificationsSchema.default({ perHour: 10 }),
};

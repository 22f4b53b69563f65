import { describe, expect, it } from 'vitest';
import { durationMs, quietHoursSchema } from './config.js';
import { nextRunAfter, quietUntil, scheduleProblem, wallClock } from './cron.js';
import { SCAFFOLD } from '../workspace.js';
import { heartbeatTasks } from './jobs.js';

const runs = (cron: string, zone: string, from: string, n: number): string[] => {
  const out: string[] = [];
  let at = new Date(from);
  for (let i = 0; i < n; i++) {
    at = nextRunAfter(cron, zone, at) as Date;
    out.push(at.toISOString());
  }
  return out;
};

describe('next runs in a time zone', () => {
  it('keeps 09:00 Paris time across the spring change (last Sunday of March: 08:00Z, then 07:00Z)', () => {
    expect(runs('0 9 * * *', 'Europe/Paris', '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
  });

  it('keeps 09:00 Paris time across the autumn change (last Sunday of October: 07:00Z, then 08:00Z)', () => {
    expect(runs('0 9 * * *', 'Europe/Paris', '2026-10-23T12:00:00Z', 3)).toEqual([
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
    ]);
  });

  it('runs a time that does not exist on the spring day (02:30) once, just after the jump', () => {
    const [, spring] = runs('30 2 * * *', 'Europe/Paris', '2026-03-28T00:00:00Z', 2);
    expect(spring).toBe('2026-03-29T01:00:00.000Z');
    expect(wallClock(new Date(spring as string), 'Europe/Paris')).toBe('03:00');
  });

  it('refuses a bad cron expression or zone with the fix and an example', () => {
    expect(scheduleProblem('61 * * * *', 'UTC')).toMatch(/not valid.*minute.*e\.g\. "0 9 \* \* 1-5"/);
    expect(scheduleProblem('every day', 'UTC')).toMatch(/five fields/);
    expect(scheduleProblem('0 9 * * *', 'Mars/Base')).toMatch(/not an IANA time zone.*Europe\/Paris/);
    expect(scheduleProblem('0 9 * * *', 'America/New_York')).toBeUndefined();
  });

  it('takes five fields only: croner would read a sixth as seconds, and a nickname', () => {
    expect(scheduleProblem('0 0 8 * * *', 'UTC')).toBe(
      'The cron expression "0 0 8 * * *" is not valid (it has 6 fields). Use five fields (minute hour day month weekday), e.g. "0 9 * * 1-5" (09:00 on weekdays) or "*/30 * * * *" (every 30 minutes).',
    );
    expect(scheduleProblem('@daily', 'UTC')).toMatch(/\(it has 1 field\)\. Use five fields/);
    expect(scheduleProblem(' 0  8 * * * ', 'UTC')).toBeUndefined();
  });
});

describe('quiet hours', () => {
  const quiet = quietHoursSchema.parse({ start: '22:00', end: '07:00', timeZone: 'Europe/Paris' });

  it('holds across midnight in the user zone and says when they end', () => {
    // 21:30Z in winter is 22:30 in Paris: quiet until 07:00 Paris, 06:00Z.
    expect(quietUntil(new Date('2026-01-10T21:30:00Z'), quiet)?.toISOString()).toBe('2026-01-11T06:00:00.000Z');
    expect(quietUntil(new Date('2026-01-11T05:59:00Z'), quiet)?.toISOString()).toBe('2026-01-11T06:00:00.000Z');
    expect(quietUntil(new Date('2026-01-11T06:00:00Z'), quiet)).toBeUndefined();
    expect(quietUntil(new Date('2026-01-10T20:59:00Z'), quiet)).toBeUndefined();
    // Summer time: 07:00 in Paris is 05:00Z.
    expect(quietUntil(new Date('2026-07-01T03:00:00Z'), quiet)?.toISOString()).toBe('2026-07-01T05:00:00.000Z');
  });

  it('holds within one day, and none are configured by default', () => {
    const lunch = quietHoursSchema.parse({ start: '12:00', end: '13:30' });
    expect(quietUntil(new Date('2026-01-10T12:10:00Z'), lunch)?.toISOString()).toBe('2026-01-10T13:30:00.000Z');
    expect(quietUntil(new Date('2026-01-10T13:30:00Z'), lunch)).toBeUndefined();
    expect(quietUntil(new Date('2026-01-10T12:10:00Z'), undefined)).toBeUndefined();
  });

  it('refuses bad times and zones in config', () => {
    expect(quietHoursSchema.safeParse({ start: '25:00', end: '07:00' }).success).toBe(false);
    expect(quietHoursSchema.safeParse({ start: '22:00', end: '07:00', timeZone: 'Paris' }).success).toBe(false);
    expect(quietHoursSchema.safeParse({ start: '22:00', end: '22:00' }).success).toBe(false);
  });
});

describe('heartbeat config and tasks', () => {
  it('reads intervals, refusing nonsense and anything under a minute', () => {
    expect(durationMs('30m')).toBe(1_800_000);
    expect(durationMs('2h')).toBe(7_200_000);
    expect(durationMs('1d')).toBe(86_400_000);
    expect(durationMs('0m')).toBeUndefined();
    expect(durationMs('soon')).toBeUndefined();
  });

  it('takes one task per list item of HEARTBEAT.md, ignoring headings and prose', () => {
    const md = '# Heartbeat\n\nChecks, one per line:\n\n- Check the mail\n* Water the plants \n1. Summarise notes/\n-\n';
    expect(heartbeatTasks(md)).toEqual(['Check the mail', 'Water the plants', 'Summarise notes/']);
  });

  it('runs nothing from a new workspace: its example task is commented out', () => {
    const scaffold = SCAFFOLD.find((f) => f.path === 'HEARTBEAT.md')?.content ?? '';
    expect(scaffold).toContain('- Summarise what changed');
    expect(heartbeatTasks(scaffold)).toEqual([]);
    expect(heartbeatTasks('<!-- - hidden -->\n- shown\n<!-- - unclosed')).toEqual(['shown']);
  });
});

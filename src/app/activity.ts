/** Activity operations: what the store saw and learned per day, and the tool calls over time. */
import { z } from 'zod';
import { DAY_MS, parseInstant } from '../core/clock.js';
import type { DayCount, ToolCount } from '../store/activity.js';
import { type AppContext, defineOperation } from './operation.js';
import { wholeNumber } from './schemas.js';

export const SIGNALS = ['observations', 'sessions', 'corrections', 'feedback', 'instincts'] as const;
type Signal = (typeof SIGNALS)[number];

/**
 * Where a range of `days` ends: today, or the day of the latest observation when nothing
 * was seen in the range (history imported months later shows its last weeks, not empty days).
 */
export function rangeEnd(now: Date, latest: string | null, days: number): Date {
  const last = latest ? new Date(latest) : undefined;
  if (!last || Number.isNaN(last.getTime())) return now;
  return last.getTime() < now.getTime() - days * DAY_MS ? last : now;
}

/** The UTC days from `days - 1` days before `now` to `now`, oldest first. */
export function dayRange(now: Date, days: number): string[] {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  return Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}

/** Every day of the range with each signal's count (0 when none). */
export function signalTable(days: readonly string[], counts: readonly DayCount[]): ({ day: string } & Record<Signal, number>)[] {
  const rows = new Map(days.map((day) => [day, { day, observations: 0, sessions: 0, corrections: 0, feedback: 0, instincts: 0 }]));
  for (const c of counts) {
    const row = rows.get(c.day);
    if (row) row[c.signal] += c.n;
  }
  return [...rows.values()];
}

export interface ToolGroup {
  key: string;
  calls: number;
  failed: number;
  tools: Record<string, { calls: number; failed: number }>;
}

/** Per-tool counts grouped by their key (a day or a session), in the order the keys first appear. */
export function groupTools(counts: readonly ToolCount[]): ToolGroup[] {
  const groups = new Map<string, ToolGroup>();
  for (const c of counts) {
    let g = groups.get(c.key);
    if (!g) groups.set(c.key, (g = { key: c.key, calls: 0, failed: 0, tools: {} }));
    g.calls += c.calls;
    g.failed += c.failed;
    g.tools[c.tool] = { calls: c.calls, failed: c.failed };
  }
  return [...groups.values()];
}

const span = () => ({
  days: wholeNumber(1, 366).default(30),
  /** The range's last day (YYYY-MM-DD); default: today, or the latest activity when the range would show none. */
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a day such as 2026-03-01' })
    .refine((d) => parseInstant(d) !== undefined, { error: 'must be a day such as 2026-03-01' })
    .optional(),
});

/**
 * The stored history's first and latest observation, and the days a range shows: up to the day
 * asked for, or rangeEnd's, which reaches `alsoLatest` too (feedback given today on old history).
 */
function rangeOf(store: AppContext['store'], input: { days: number; to?: string | undefined }, alsoLatest: string | null = null) {
  const span = { first: store.activity.first(), latest: store.activity.latest() };
  const latest =
    [span.latest, alsoLatest]
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1) ?? null;
  const end = input.to ? (parseInstant(input.to) as Date) : rangeEnd(store.clock.now(), latest, input.days);
  return { span, days: dayRange(end, input.days) };
}
const since = (days: string[]): string => `${days[0]}T00:00:00.000Z`;

export const signals = defineOperation({
  name: 'sessions.signals',
  summary: 'Per day up to the latest activity: observations, sessions started, corrections, feedback given and instincts learned',
  input: z.object(span()),
  run: ({ store }, input) => {
    const { span, days } = rangeOf(store, input, store.activity.latestFeedback());
    return {
      signals: SIGNALS,
      ...span,
      days: signalTable(days, store.activity.signalDays(since(days))),
    };
  },
});

export const toolTimeline = defineOperation({
  name: 'tools.timeline',
  summary: 'Tool calls per day and per session, with their failures, over the days up to the latest activity',
  input: z.object({ ...span(), failures: wholeNumber(0, 500).default(20) }),
  run: ({ store }, input) => {
    const { span, days } = rangeOf(store, input);
    const from = since(days);
    const byDay = new Map(groupTools(store.activity.toolDays(from)).map((g) => [g.key, g]));
    const perDay = days.map((day): ToolGroup => byDay.get(day) ?? { key: day, calls: 0, failed: 0, tools: {} });
    const tools = [...new Set(perDay.flatMap((d) => Object.keys(d.tools)))].sort();
    return {
      tools,
      ...span,
      days: perDay,
      sessions: groupTools(store.activity.toolSessions(from)),
      failures: store.activity.toolFailures(from, input.failures),
    };
  },
});

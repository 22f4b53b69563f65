/**
 * Dates a query names ("on 13 October, 2023", "in June 2022", "in July", "in 2023"):
 * memories dated in that period, or in the weeks after it (people talk about things when
 * or after they happen), move up. English month names; pure.
 */
import { DAY_MS } from '../core/clock.js';

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')}|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)`;

export interface TimeHint {
  /** Inclusive start and exclusive end, epoch ms; a month without a year matches that month of any year. */
  start?: number;
  end?: number;
  month?: number;
}

const monthIndex = (name: string): number => MONTHS.findIndex((m) => m.startsWith(name.toLowerCase().slice(0, 3)));

export function timeHints(query: string): TimeHint[] {
  const q = query.toLowerCase();
  const hints: TimeHint[] = [];
  const taken: [number, number][] = [];
  const take = (m: RegExpExecArray) => {
    const span: [number, number] = [m.index, m.index + m[0].length];
    if (taken.some(([a, b]) => span[0] < b && a < span[1])) return false;
    taken.push(span);
    return true;
  };
  const day = (y: number, mo: number, d: number) => ({ start: Date.UTC(y, mo, d), end: Date.UTC(y, mo, d + 1) });
  for (const m of q.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH},?\\s+(\\d{4})\\b`, 'g'))) {
    if (take(m)) hints.push(day(Number(m[3]), monthIndex(m[2] as string), Number(m[1])));
  }
  for (const m of q.matchAll(new RegExp(`\\b${MONTH}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'g'))) {
    if (take(m)) hints.push(day(Number(m[3]), monthIndex(m[1] as string), Number(m[2])));
  }
  for (const m of q.matchAll(new RegExp(`\\b${MONTH},?\\s+(\\d{4})\\b`, 'g'))) {
    const mo = monthIndex(m[1] as string);
    if (take(m)) hints.push({ start: Date.UTC(Number(m[2]), mo, 1), end: Date.UTC(Number(m[2]), mo + 1, 1) });
  }
  // A bare month name: "may" is also a verb, so only the full names other than May count here.
  for (const m of q.matchAll(new RegExp(`\\b(${MONTHS.filter((n) => n !== 'may').join('|')})\\b`, 'g'))) {
    if (take(m)) hints.push({ month: monthIndex(m[1] as string) });
  }
  for (const m of q.matchAll(/\b((?:19|20)\d{2})\b/g)) {
    if (take(m)) hints.push({ start: Date.UTC(Number(m[1]), 0, 1), end: Date.UTC(Number(m[1]) + 1, 0, 1) });
  }
  return hints;
}

/** Days after a named period during which a memory still counts as "about" it. */
export const AFTER_DAYS = 30;

/** Whether an ISO timestamp falls in a hinted period or up to AFTER_DAYS after it. */
export function matchesHint(ts: string | null, hints: readonly TimeHint[]): boolean {
  if (!ts || hints.length === 0) return false;
  const t = Date.parse(ts);
  if (!Number.isFinite(t)) return false;
  const slack = AFTER_DAYS * DAY_MS;
  return hints.some((h) => {
    if (h.month !== undefined) {
      const d = new Date(t);
      const inMonth = d.getUTCMonth() === h.month;
      const before = new Date(t - slack);
      return inMonth || before.getUTCMonth() === h.month;
    }
    return h.start !== undefined && h.end !== undefined && t >= h.start && t < h.end + slack;
  });
}

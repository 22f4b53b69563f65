/**
 * A prompt that asks about the past ("what was the deadline on 2026-01-15?", "two weeks
 * ago", "la semaine dernière", "in January") is answered from the graph as it stood then:
 * the instant found here becomes the valid time of the search. Only past instants count.
 * A day means the end of that day; a month the end of that month.
 */
import { DAY_MS } from '../core/clock.js';

export interface TimeReference {
  at: string;
  phrase: string;
}

const UNIT_DAYS: Record<string, number> = {
  day: 1,
  days: 1,
  jour: 1,
  jours: 1,
  week: 7,
  weeks: 7,
  semaine: 7,
  semaines: 7,
  month: 30,
  months: 30,
  mois: 30,
  year: 365,
  years: 365,
  an: 365,
  ans: 365,
  année: 365,
  années: 365,
};
const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  un: 1,
  une: 1,
  deux: 2,
  trois: 3,
  quatre: 4,
  cinq: 5,
};
const MONTHS: [RegExp, number][] = [
  [/^(january|janvier)$/, 0],
  [/^(february|février|fevrier)$/, 1],
  [/^(march|mars)$/, 2],
  [/^(april|avril)$/, 3],
  [/^(may|mai)$/, 4],
  [/^(june|juin)$/, 5],
  [/^(july|juillet)$/, 6],
  [/^(august|août|aout)$/, 7],
  [/^(september|septembre)$/, 8],
  [/^(october|octobre)$/, 9],
  [/^(november|novembre)$/, 10],
  [/^(december|décembre|decembre)$/, 11],
];

const endOfDay = (d: Date): Date => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 23, 59, 59, 999));

function monthIndex(word: string): number | undefined {
  return MONTHS.find(([re]) => re.test(word.toLowerCase()))?.[1];
}

export function timeReference(prompt: string, now: Date): TimeReference | undefined {
  const text = prompt.toLowerCase();
  const found: TimeReference[] = [];
  const add = (date: Date, phrase: string) => {
    if (Number.isFinite(date.getTime()) && date.getTime() < now.getTime()) found.push({ at: date.toISOString(), phrase });
  };
  for (const m of text.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) add(endOfDay(new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`)), m[0]);
  for (const m of text.matchAll(
    /\b(\d+|an?|one|two|three|four|five|six)\s+(days?|weeks?|months?|years?)\s+ago\b|\bil y a\s+(\d+|une?|deux|trois|quatre|cinq)\s+(jours?|semaines?|mois|ans?|années?)\b/g,
  )) {
    const count = m[1] ?? m[3] ?? '1';
    const n = /^\d+$/.test(count) ? Number(count) : (NUMBER_WORDS[count] ?? 1);
    add(new Date(now.getTime() - n * (UNIT_DAYS[m[2] ?? m[4] ?? 'day'] ?? 1) * DAY_MS), m[0]);
  }
  if (/\b(yesterday)\b|(^|\s)hier(\s|[?.,!]|$)/.test(text)) add(endOfDay(new Date(now.getTime() - DAY_MS)), 'yesterday');
  if (/\blast week\b|la semaine (dernière|derniere|passée)/.test(text)) add(new Date(now.getTime() - 7 * DAY_MS), 'last week');
  if (/\blast month\b|le mois (dernier|passé)/.test(text)) add(new Date(now.getTime() - 30 * DAY_MS), 'last month');
  if (/\blast year\b|l['’]an(née)? (dernier|dernière|passée?)/.test(text)) add(new Date(now.getTime() - 365 * DAY_MS), 'last year');
  for (const m of text.matchAll(/\b(?:in|en|during|pendant|back in)\s+([a-zéû]+)(?:\s+(\d{4}))?\b/g)) {
    const month = monthIndex(m[1] ?? '');
    if (month === undefined) continue;
    let year = m[2] ? Number(m[2]) : now.getUTCFullYear();
    if (!m[2] && Date.UTC(year, month, 1) > now.getTime()) year--;
    add(new Date(Date.UTC(year, month + 1, 1) - 1), m[0]);
  }
  // The earliest mention in the text wins when there are several.
  return found.sort((a, b) => text.indexOf(a.phrase) - text.indexOf(b.phrase))[0];
}

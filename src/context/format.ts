/** Shared pieces of injected context: one-line text, where an item came from, and a character budget. Pure. */
import type { InstinctProvenance } from '../store/instincts.js';
import { neutralise } from './fence.js';

/**
 * Stored text as one item of injected context: neutralised (see fence.ts), whitespace
 * collapsed so it never spans lines (a line of its own could pass for a heading or a
 * message), cut to `max` characters.
 */
export function oneLine(text: string, max: number): string {
  const flat = neutralise(text).replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${cutAt(flat, max - 1)}…`;
}

/**
 * `text` cut to at most `room` characters where a reader expects a cut: after a whole word
 * (giving back at most 40% of the room), and before a code span it would leave open, since
 * `repos/entireio/cli/pul…` reads as a real path (giving back at most 70%; past that the span
 * is closed where it was cut).
 */
function cutAt(text: string, room: number): string {
  let cut = text.slice(0, room);
  if (/\w/.test(text.charAt(room)) && /\w$/.test(cut)) {
    const space = cut.lastIndexOf(' ');
    if (space >= room * 0.6) cut = cut.slice(0, space);
  }
  if ((cut.match(/`/g) ?? []).length % 2 === 1) {
    const open = cut.lastIndexOf('`');
    cut = open >= room * 0.3 ? cut.slice(0, open) : `${cut}\``;
  }
  // A quote or an aside cut open ('users ask for that ("I got this feedback, can you…') reads
  // as the user's words trailing off: the cut goes before it when that keeps half the room.
  const open = unclosedAt(cut);
  if (open >= room * 0.5) cut = cut.slice(0, open);
  return cut.replace(/[\s,;:(]+$/, '');
}

/** Where the last quote or parenthesis left open in `text` opens, or -1. */
function unclosedAt(text: string): number {
  const quotes = [...text.matchAll(/"/g)].map((m) => m.index);
  const quote = quotes.length % 2 === 1 ? (quotes.at(-1) as number) : -1;
  let depth = 0;
  let paren = -1;
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] === ')') depth++;
    else if (text[i] === '(' && depth-- === 0) {
      paren = i;
      break;
    }
  }
  const opened = [quote, paren].filter((i) => i >= 0);
  return opened.length ? Math.min(...opened) : -1;
}

/** Where an instinct came from, as injected context names it: observed or imported, and whether the user confirmed it. */
export function instinctSource(provenance: InstinctProvenance | undefined): string {
  const origin = provenance?.imported ? 'imported' : 'observed';
  return provenance?.verdict === 'strong' ? `${origin}, confirmed by the user` : origin;
}

/** A pattern key shown beside an item: at most 60 characters. */
export const shortKey = (key: string): string => oneLine(key, 60);

/**
 * Joins `head`, as many `items` as fit, then `tail`, within `budget` characters. Returns
 * the text and how many items made it.
 */
export function fitToBudget(
  head: readonly string[],
  items: readonly string[],
  tail: readonly string[],
  budget: number,
): { text: string; shown: number } {
  const size = (lines: readonly string[]): number => lines.reduce((n, l) => n + l.length + 1, 0);
  let used = size(head) + size(tail);
  const kept: string[] = [];
  for (const item of items) {
    if (used + item.length + 1 > budget) break;
    kept.push(item);
    used += item.length + 1;
  }
  const text = [...head, ...kept, ...tail].join('\n');
  return { text: text.length > budget ? text.slice(0, budget) : text, shown: kept.length };
}

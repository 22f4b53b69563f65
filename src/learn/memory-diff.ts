/**
 * What changed in the instincts between two instants, from their event history (pure).
 * Every change to an instinct's score is an event with its delta, so its stored confidence
 * at T is today's minus the deltas of the events at or after T.
 *
 *   created    a create or import event in [from, to)
 *   forgotten  forgotten by hand in the range (its log stays, ending in a 'forget' whose
 *              delta takes it to 0)
 *   faded      not created or corrected by hand in it, and fell into the faded band by its
 *              end: still there, and still given when a prompt clearly matches it
 *   changed    any other instinct with events in the range (a hand correction always)
 *
 * An instinct deleted outright (merged into another, demoted co-edit) takes its events
 * with it and is not seen here; a merge shows as an `alias` change on the one it joined.
 */
import type { EventKind } from '../store/instincts.js';
import type { InstinctEventLine } from '../store/audit.js';
import { DAY_MS } from '../core/clock.js';
import { round } from '../core/text.js';
import { confidenceBand } from './confidence.js';

export interface InstinctMove {
  pattern: string;
  confidence_before: number;
  confidence_after: number;
  evidence_added: number;
  /** The kinds of events in the range, each once, in the order first seen. */
  kinds: EventKind[];
}

export interface InstinctDiff {
  created: InstinctMove[];
  changed: InstinctMove[];
  forgotten: InstinctMove[];
  faded: InstinctMove[];
}

const CREATING: readonly EventKind[] = ['create', 'import'];
const BY_HAND: readonly EventKind[] = ['feedback', 'edit', 'promote', 'unpromote', 'alias'];

/** `events` must hold every event at or after `from` (AuditRepository.instinctEventsSince). */
export function instinctDiff(events: readonly InstinctEventLine[], from: string, to: string): InstinctDiff {
  const byInstinct = new Map<string, InstinctEventLine[]>();
  for (const e of events) {
    if (e.ts < from) continue;
    const key = e.instinct_id === null ? `forgotten:${e.pattern}` : String(e.instinct_id);
    byInstinct.set(key, [...(byInstinct.get(key) ?? []), e]);
  }
  const diff: InstinctDiff = { created: [], changed: [], forgotten: [], faded: [] };
  for (const list of byInstinct.values()) {
    const inRange = list.filter((e) => e.ts < to);
    if (inRange.length === 0) continue;
    const now = (list[0] as InstinctEventLine).confidence;
    const sumFrom = (at: string) => list.filter((e) => e.ts >= at).reduce((s, e) => s + e.delta_confidence, 0);
    const move: InstinctMove = {
      pattern: (list[0] as InstinctEventLine).pattern,
      confidence_before: clamp(now - sumFrom(from)),
      confidence_after: clamp(now - sumFrom(to)),
      evidence_added: inRange.reduce((s, e) => s + e.delta_evidence, 0),
      kinds: [...new Set(inRange.map((e) => e.kind))],
    };
    if (inRange.some((e) => e.kind === 'forget')) diff.forgotten.push(move);
    else if (inRange.some((e) => CREATING.includes(e.kind))) diff.created.push(move);
    // A correction by hand is a change the user made, whatever the score did meanwhile.
    else if (inRange.some((e) => BY_HAND.includes(e.kind))) diff.changed.push(move);
    else if (confidenceBand(move.confidence_before) !== 'faded' && confidenceBand(move.confidence_after) === 'faded') diff.faded.push(move);
    else diff.changed.push(move);
  }
  return diff;
}

const clamp = (c: number): number => round(Math.min(1, Math.max(0, c)), 3);

const DATE_ONLY = /^\d{4}-\d\d-\d\d$/;

/** A range from two dates or instants: a bare `to` date counts the whole of that day. */
export function dayRange(from: Date, to: Date, toText: string): { from: string; to: string } {
  const end = DATE_ONLY.test(toText.trim()) ? new Date(to.getTime() + DAY_MS) : to;
  return { from: from.toISOString(), to: end.toISOString() };
}

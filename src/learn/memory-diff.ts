/**
 * What changed in the instincts between two instants, from their event history (pure).
 * Every change to an instinct's score is an event with its delta, so its stored confidence
 * at T is today's minus the deltas of the events at or after T.
 *
 *   created    a create or import event in [from, to)
 *   forgotten  forgotten by hand in the range (its log stays, ending in a 'forget' whose
 *              delta takes it to 0)
 *   taken_back forgotten by learning itself (a co-edit pair no longer edited together), with
 *              the reason its forget event keeps: not the user's doing, so not "forgotten"
 *   merged     each key merged into another (its 'alias' event on the one it joined)
 *   faded      not created or corrected by hand in it, and fell into the faded band by its
 *              end: still there, and still given when a prompt clearly matches it
 *   changed    any other instinct with events in the range (a hand correction always)
 *
 * A merged instinct's own events go with it; the merge is read from the one it joined.
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
  /** Why learning took it back (taken_back only). */
  reason?: string;
}

export interface InstinctMerge {
  /** The key merged away. */
  pattern: string;
  into: string;
  at: string;
  source: string;
}

export interface InstinctDiff {
  created: InstinctMove[];
  changed: InstinctMove[];
  forgotten: InstinctMove[];
  taken_back: InstinctMove[];
  faded: InstinctMove[];
  merged: InstinctMerge[];
}

/** Learning's reason on a forget event, when learning (not the user) let the instinct go. */
function takenBackReason(e: InstinctEventLine): string | undefined {
  try {
    const reason = (JSON.parse(e.detail) as { reason?: unknown }).reason;
    return typeof reason === 'string' && reason ? reason : undefined;
  } catch {
    return undefined;
  }
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
  const diff: InstinctDiff = { created: [], changed: [], forgotten: [], taken_back: [], faded: [], merged: [] };
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
    for (const e of inRange)
      if (e.kind === 'alias' && e.detail.startsWith('absorbed '))
        diff.merged.push({ pattern: e.detail.slice('absorbed '.length), into: move.pattern, at: e.ts, source: e.source });
    const forget = inRange.find((e) => e.kind === 'forget');
    const reason = forget && takenBackReason(forget);
    if (reason) diff.taken_back.push({ ...move, reason });
    else if (forget) diff.forgotten.push(move);
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

/**
 * Tulving's taxonomy, decided deterministically, in this order:
 *
 *   1. episodic    the text names a moment: an ISO date, "yesterday"/"hier", "today"/
 *                  "aujourd'hui", "this morning"/"ce matin", or a particular session
 *   2. procedural  the relation is a how-to relation (follows_pattern, implements,
 *                  configured_with, workaround_for, solved_by, built_with)
 *   3. procedural  the text describes a how-to ("when X -> Y", "how to", "quand ... alors")
 *   4. episodic    the fact carries an explicit event time within 48 h of now
 *   5. semantic    everything else
 *
 * Two readings of the design, chosen on purpose:
 * - "session" marks a moment only when it names one ("in this session", "session 3f2a9c"):
 *   "uses session cookies" is general knowledge, not an event.
 * - The 48-hour rule looks at a valid_at the source gave for an event. A fact whose
 *   valid_at defaulted to the time it was recorded says nothing about being an event;
 *   otherwise every new fact would be born episodic and immutable.
 */
import { DAY_MS } from '../core/clock.js';
import type { MemoryType } from '../core/graph-vocabulary.js';

export { MEMORY_TYPES, type MemoryType } from '../core/graph-vocabulary.js';

// prettier-ignore
const PROCEDURAL_RELATIONS: ReadonlySet<string> = new Set([
  'follows_pattern',
  'implements',
  'configured_with',
  'workaround_for',
  'solved_by',
  'built_with',
]);

const EPISODE_WINDOW_MS = 2 * DAY_MS;

const EPISODIC_MARKERS = [
  /\b\d{4}-\d{2}-\d{2}\b/,
  /\b(yesterday|today|tonight|this morning|this afternoon|last night)\b/i,
  /(^|[^\p{L}])(hier|aujourd['’]hui|ce matin|cet après-midi|ce soir)(?![\p{L}])/iu,
  /\b(in|during|this|that|last|previous|same) session\b/i,
  /\b(cette|la|lors de la|pendant la|dernière) session\b/i,
  /\bsession\s+[0-9a-f]{6,}/i,
];

const HOW_TO = [
  /(->|→|=>)/,
  /^\s*(when|whenever|before|after|to)\b.+,/i,
  /\bhow to\b/i,
  /^\s*(quand|lorsque|avant de|après avoir|pour)\b/i,
  /\bcomment (faire|on)\b/i,
  /\b(run|use|execute|lancer|exécuter|utiliser)\s+`[^`]+`/i,
];

interface ClassifyInput {
  relation: string;
  description: string;
  /** The fact's valid_at when the source gave one for an event; undefined when it defaulted. */
  eventAt?: Date | string;
  now: Date;
}

export function classifyMemoryType(input: ClassifyInput): MemoryType {
  const text = input.description;
  if (EPISODIC_MARKERS.some((re) => re.test(text))) return 'episodic';
  if (PROCEDURAL_RELATIONS.has(input.relation)) return 'procedural';
  if (HOW_TO.some((re) => re.test(text))) return 'procedural';
  if (input.eventAt !== undefined) {
    const at = typeof input.eventAt === 'string' ? Date.parse(input.eventAt) : input.eventAt.getTime();
    if (Number.isFinite(at) && Math.abs(input.now.getTime() - at) < EPISODE_WINDOW_MS) return 'episodic';
  }
  return 'semantic';
}

/** Episodic memories are immutable; semantic and procedural ones can be reconsolidated. */
export const isMutable = (type: MemoryType): boolean => type !== 'episodic';

/**
 * The one schema every imported instinct passes, whatever brought it (an archive, instinct
 * files, import_patterns rows, a CLAUDE.md): an import states things nobody observed here,
 * so each field is checked and bounded before anything is stored. Dates must parse and are
 * clamped to now, numbers are finite and in range, the category must agree with the key's
 * prefix, and text is limited in length (a 60 MB action once slowed every prompt hook).
 */
import { z } from 'zod';
import { parseInstant } from '../core/clock.js';
import { CATEGORIES, DOMAINS, parseKey } from '../core/domain.js';
import { isFingerprint } from '../core/project.js';
import { CONFIDENCE_CEILING, CONFIDENCE_FLOOR } from '../learn/confidence.js';
import type { IncomingInstinct } from '../learn/merge.js';
import { InputError, issuesOf } from './operation.js';
import { text, wholeNumber } from './schemas.js';

/**
 * The most occurrences an import may state: far past any count an honest store reaches (observe
 * and alias may take a store past 10,000, and what export writes must import), far from overflow.
 */
export const MAX_IMPORTED_EVIDENCE = 1_000_000_000;
const MAX_METADATA_CHARS = 10_000;

const LIMITS = { key: 512, trigger: 4_000, action: 4_000, title: 200, explain: 2_000, project: 200, source: 200, domain: 64 } as const;

const bounded = (max: number) => text(max).trim().optional();

/** A trigger says when the instinct applies: `edit` refuses an empty one, and so does an import. */
const trigger = () => text(LIMITS.trigger).trim().min(1, { error: 'must not be empty: say when it applies' }).optional();

/** A project is a fingerprint (as the store files them) or '' for every project; a name or a path is neither. */
const project = () =>
  text(LIMITS.project)
    .trim()
    .refine((v) => v === '' || isFingerprint(v), { error: 'must be a project fingerprint (16 hex characters) or empty' })
    .optional();

const score = () => {
  const message = 'must be a number between 0 and 1';
  return z
    .number({ error: message })
    .min(0, { error: message })
    .max(1, { error: message })
    .transform((v) => Math.min(CONFIDENCE_CEILING, Math.max(CONFIDENCE_FLOOR, v)));
};

/** An ISO-8601 date or instant (or a date YAML already parsed), never later than `now`. */
const pastInstant = (now: Date) =>
  z.union([z.string(), z.date()], { error: 'must be an ISO-8601 date or instant' }).transform((value, ctx) => {
    const date = value instanceof Date ? value : parseInstant(value);
    if (!date || Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'must be an ISO-8601 date or instant', input: value });
      return z.NEVER;
    }
    return (date > now ? now : date).toISOString();
  });

const metadata = () =>
  z
    .record(z.string(), z.unknown(), { error: 'must be an object' })
    .refine((m) => JSON.stringify(m).length <= MAX_METADATA_CHARS, { error: `must be at most ${MAX_METADATA_CHARS} characters as JSON` });

/** The schema of one imported instinct, with dates clamped to `now`. */
export function importedInstinct(now: Date) {
  return z
    .object(
      {
        key: text(LIMITS.key),
        category: z.enum(CATEGORIES, { error: `must be one of ${CATEGORIES.join(', ')}` }).optional(),
        trigger: trigger(),
        action: bounded(LIMITS.action),
        title: bounded(LIMITS.title),
        explain: bounded(LIMITS.explain),
        domain: bounded(LIMITS.domain),
        project: project(),
        source: bounded(LIMITS.source),
        metadata: metadata().optional(),
        evidence: wholeNumber(1, MAX_IMPORTED_EVIDENCE).default(1),
        confidence: score().optional(),
        first_seen: pastInstant(now).optional(),
        last_seen: pastInstant(now).optional(),
      },
      { error: 'must be an object' },
    )
    .transform((r, ctx): IncomingInstinct => {
      let key: ReturnType<typeof parseKey>;
      try {
        key = parseKey(r.key);
      } catch (err) {
        ctx.addIssue({ code: 'custom', path: ['key'], message: `is not a pattern key: ${(err as Error).message}`, input: r.key });
        return z.NEVER;
      }
      if (r.category && r.category !== key.category) {
        const message = `is ${r.category}, but the key's prefix ${key.prefix}: means ${key.category}`;
        ctx.addIssue({ code: 'custom', path: ['category'], message });
        return z.NEVER;
      }
      // A record that names no last sighting leaves it to the merge: now for a new instinct, and
      // no new sighting of one held (importing the same file again changes nothing).
      const lastSeen = r.last_seen;
      const firstSeen = r.first_seen && (!lastSeen || r.first_seen < lastSeen) ? r.first_seen : lastSeen;
      const domain = r.domain && (DOMAINS as readonly string[]).includes(r.domain) ? r.domain : undefined;
      return { ...r, key: key.key, category: key.category, domain, first_seen: firstSeen, last_seen: lastSeen };
    });
}

type Checked = { ok: true; instinct: IncomingInstinct } | { ok: false; reason: string };

/**
 * Validates one imported record; a bad one gets a reason that names each wrong field, in
 * the source's own words when `names` renames them (import_patterns calls the key "pattern").
 */
export function checkImported(raw: unknown, now: Date, names: Readonly<Record<string, string>> = {}): Checked {
  const parsed = importedInstinct(now).safeParse(raw, { reportInput: true });
  if (parsed.success) return { ok: true, instinct: parsed.data };
  const error = new InputError('import', issuesOf(parsed.error), (path) => names[path] ?? (path || 'the record'));
  return { ok: false, reason: error.message.replace(/\.$/, '') };
}

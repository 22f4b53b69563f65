/**
 * Speaker focus: a query that names the author of some documents ("what does Alice do to
 * relax?") is about what that author said. On LoCoMo 94-100% of the evidence of a
 * question naming one speaker was said by that speaker, against 57% of the hits before
 * this stage. Documents of another known speaker keep `factor` of their score (they stay
 * in the list, and still pass their score on to their neighbours first: a question and
 * its answer are often said by two people); documents without a speaker are untouched.
 */
import type { Db } from '../store/db.js';
import { candidatePhrases } from './query-text.js';

type Lookup = { any: () => boolean; find: (phrase: string) => string | undefined };
const lookups = new WeakMap<Db, Lookup>();

function lookupFor(db: Db): Lookup {
  let l = lookups.get(db);
  if (!l) {
    const any = db.prepare('SELECT 1 FROM documents WHERE speaker IS NOT NULL LIMIT 1').pluck();
    const find = db.prepare('SELECT speaker FROM documents WHERE speaker = ? COLLATE NOCASE LIMIT 1').pluck();
    l = { any: () => any.get() !== undefined, find: (phrase) => find.get(phrase) as string | undefined };
    lookups.set(db, l);
  }
  return l;
}

/** The speakers of stored documents that the query names (lower-cased). */
export function namedSpeakers(db: Db, query: string): Set<string> {
  const named = new Set<string>();
  const lookup = lookupFor(db);
  if (!lookup.any()) return named;
  for (const phrase of candidatePhrases(query)) {
    const speaker = lookup.find(phrase);
    if (speaker !== undefined) named.add(speaker.toLowerCase());
  }
  return named;
}

/** Query terms without the named speakers' names (unchanged when nothing else would remain). */
export function withoutSpeakers(terms: readonly string[], named: ReadonlySet<string>): string[] {
  if (named.size === 0) return [...terms];
  const nameWords = new Set([...named].flatMap((n) => n.split(/\s+/)));
  const rest = terms.filter((t) => !nameWords.has(t));
  return rest.length > 0 ? rest : [...terms];
}

/** Scores with documents of speakers the query did not name scaled by `factor`. */
export function focusOnSpeakers(
  scores: ReadonlyMap<number, number>,
  speakerOf: (id: number) => string | null | undefined,
  named: ReadonlySet<string>,
  factor: number,
): Map<number, number> {
  const out = new Map(scores);
  if (named.size === 0) return out;
  for (const [id, score] of scores) {
    const speaker = speakerOf(id);
    if (speaker && !named.has(speaker.toLowerCase())) out.set(id, score * factor);
  }
  return out;
}

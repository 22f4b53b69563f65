/**
 * Speaker focus: a query that names the author of some documents ("what does Alice do to
 * relax?") is about what that author said. On LoCoMo 94-100% of the evidence of a
 * question naming one speaker was said by that speaker, against 57% of the hits before
 * this stage. Documents of another known speaker keep `factor` of their score (they stay
 * in the list, and still pass their score on to their neighbours first: a question and
 * its answer are often said by two people); documents without a speaker are untouched.
 */
import { type Db, cachedStatement } from '../store/db.js';
import { candidatePhrases } from './query-text.js';

const ANY_SPEAKER = 'SELECT 1 FROM documents WHERE speaker IS NOT NULL LIMIT 1';
const SPEAKER_NAMED = 'SELECT speaker FROM documents WHERE speaker = ? COLLATE NOCASE LIMIT 1';

/** The speakers of stored documents that the query names (lower-cased). */
export function namedSpeakers(db: Db, query: string): Set<string> {
  const named = new Set<string>();
  if (cachedStatement(db, ANY_SPEAKER).get() === undefined) return named;
  const find = cachedStatement(db, SPEAKER_NAMED);
  for (const phrase of candidatePhrases(query)) {
    const row = find.get(phrase) as { speaker: string } | undefined;
    if (row) named.add(row.speaker.toLowerCase());
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

/** The factor a document's score takes: `factor` for a speaker the query did not name (when it names any), else 1. */
export function speakerFactor(speaker: string | null | undefined, named: ReadonlySet<string>, factor: number): number {
  return named.size > 0 && speaker && !named.has(speaker.toLowerCase()) ? factor : 1;
}

/** Scores with documents of speakers the query did not name scaled by `factor`. */
export function focusOnSpeakers(
  scores: ReadonlyMap<number, number>,
  speakerOf: (id: number) => string | null | undefined,
  named: ReadonlySet<string>,
  factor: number,
): Map<number, number> {
  const out = new Map(scores);
  for (const [id, score] of scores) out.set(id, score * speakerFactor(speakerOf(id), named, factor));
  return out;
}

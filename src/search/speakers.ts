/**
 * Speaker focus: a query that names the author of some documents ("what does Alice do to
 * relax?") is about what that author said. On LoCoMo 94-100% of the evidence of a
 * question naming one speaker was said by that speaker, against 57% of the hits before
 * this stage. Documents of another known speaker keep `factor` of their score (they stay
 * in the list, and still pass their score on to their neighbours first: a question and
 * its answer are often said by two people); documents without a speaker are untouched.
 */
import type { DocumentRepository } from '../store/documents/index.js';
import { namesPerson } from '../text/names.js';
import { candidatePhrases } from '../text/phrases.js';

/** How many distinct speakers a store may have for names to be matched fuzzily against them. */
const MAX_SPEAKERS = 200;

/** How a conversation's records name the person whose store it is, when no name is configured. */
export const SELF = ['user', 'me', 'human'];
/** "I", "I'm", "me", "my", "mine", "myself": "I" only as a capital, so a Roman numeral or "i.e." does not count. */
const FIRST_PERSON = /(?:^|[^\p{L}'])(?:I(?:'(?:m|ve|d|ll))?|[Mm]e|[Mm]y|[Mm]ine|[Mm]yself)(?![\p{L}])/u;

/**
 * The speakers of stored documents that the query names (lower-cased): by their name as
 * stored, else by another spelling of it or of their first name ("Muhammad" for "Muhhamed"),
 * for a capitalised word of the query; and for "I", "me" or "my", the store's owner as `self` names them.
 */
export function namedSpeakers(documents: DocumentRepository, query: string, self: readonly string[] = SELF): Set<string> {
  const named = new Set<string>();
  if (!documents.hasSpeakers()) return named;
  // "What did I say about ...": in one person's store, the first person is its owner.
  if (FIRST_PERSON.test(query))
    for (const name of self) {
      const speaker = documents.speaker(name);
      if (speaker !== undefined) named.add(speaker.toLowerCase());
    }
  const unknown: string[] = [];
  for (const phrase of candidatePhrases(query)) {
    const speaker = documents.speaker(phrase);
    if (speaker !== undefined) named.add(speaker.toLowerCase());
    else if (/^\p{Lu}\p{L}{3,}$/u.test(phrase)) unknown.push(phrase);
  }
  if (unknown.length === 0) return named;
  const speakers = documents.speakers(MAX_SPEAKERS);
  for (const word of unknown) for (const s of speakers) if (namesPerson(word, s)) named.add(s.toLowerCase());
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

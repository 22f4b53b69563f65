/**
 * The newest truth first: a question about how things stand now ("what is the API's response
 * time?", "how many sources are in my library?") is answered by the latest memory about that
 * subject, not by an older one that happens to share more words. Among the top results, a
 * newer one that states a value (a number, a date) about the same subject (the same question
 * words) moves above an older one that states one; the older stays, as history. A question
 * about the past is left alone. Pure functions.
 */
import { stem } from '../text/stem.js';
import { MIRRORED_COLLECTIONS } from './documents.js';
import { words } from '../text/words.js';

const ASKS = /^\s*(?:so\s+|and\s+)?(?:what|how\s+(?:many|much|long|often|far)|when|where|which|who)\b/i;
const PRESENT = /\b(?:is|are|am|'s|have|has|should|does|do|will|current(?:ly)?|now)\b/i;
const PAST =
  /\b(?:did|was|were|had|used\s+to|ago|last\s+(?:week|month|year|time)|before|originally|initially|previous(?:ly)?|at\s+first|back\s+then|in\s+\d{4})\b/i;

/** Whether a question asks how something stands now. */
export const asksCurrentState = (question: string): boolean =>
  ASKS.test(question) && PRESENT.test(question.split(/\s+/).slice(0, 8).join(' ')) && !PAST.test(question);

/** How many results, from the top, may be reordered. */
const WINDOW = 20;

interface Dated {
  text: string;
  ts: string | null;
  /** Storage order: of two memories of one instant, the one stored later came later. */
  docId: number;
  collection: string;
}

/**
 * What the system writes from its own records (a session's turns, instincts, graph facts with
 * their own validity) is not a statement that a later one updates: a newer turn that shares a
 * question's words is other work, not the new value (on the dev coding questions it pushed the
 * session that answered below newer ones).
 */
const updatable = (h: Dated): boolean => !MIRRORED_COLLECTIONS.includes(h.collection);

const older = (a: Dated, b: Dated): boolean => a.ts !== null && b.ts !== null && (a.ts < b.ts || (a.ts === b.ts && a.docId < b.docId));

/** The question's words a text holds (by stem). */
function subject(text: string, terms: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) {
    const s = stem(w);
    if (terms.has(s)) out.add(s);
  }
  return out;
}

/** A value that changes: a number (with its unit), a date, a time of day. */
const VALUE =
  /\d|\b(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;

/** Same subject: they share at least two of the question's words, and most of the smaller set. */
function sameSubject(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const shared = [...a].filter((t) => b.has(t)).length;
  return shared >= 2 && shared >= 0.6 * Math.min(a.size, b.size);
}

/** The hits with, within the top WINDOW, each newer hit moved above the older ones about its subject. */
export function newestWithinSubject<T extends Dated>(hits: readonly T[], questionTerms: readonly string[]): T[] {
  const terms = new Set(questionTerms.map(stem));
  const top = hits.slice(0, WINDOW).map((h) => ({ h, s: subject(h.text, terms), value: updatable(h) && VALUE.test(h.text) }));
  const out: typeof top = [];
  for (const item of top) {
    // Only a value can be updated: two memories that both state one, about one subject.
    const at = item.value
      ? out.findIndex((o) => o.value && o.h.collection === item.h.collection && older(o.h, item.h) && sameSubject(o.s, item.s))
      : -1;
    if (at >= 0) out.splice(at, 0, item);
    else out.push(item);
  }
  return [...out.map((o) => o.h), ...hits.slice(WINDOW)];
}

/**
 * Scores that agree with the order: a hit moved below another by the reordering shows no more
 * than the one above it (lowered, never raised, so a minimum score admits nothing new).
 */
export function scoresInRankOrder<T extends { score: number }>(hits: readonly T[]): T[] {
  let cap = Infinity;
  return hits.map((h) => {
    const score = Math.min(h.score, cap);
    cap = score;
    return score === h.score ? h : { ...h, score };
  });
}

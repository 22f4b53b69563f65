/**
 * Terms of free text: its lower-case words without stop words or repeats, in order. One
 * builder, configured per use: which stop lists, how short a word may be, how many terms.
 * Pure.
 */
import { hasCjk } from './cjk.js';
import { MAX_QUERY_TERMS } from './query.js';
import { CONTRACTIONS, COURTESY, ENGLISH, FRENCH, PROMPT_FILLER, VAGUE, stopSet } from './stopwords.js';
import { words } from './words.js';

export interface TermOptions {
  stop: ReadonlySet<string>;
  /** Shorter words are left out, unless `keepShort` keeps them. */
  minLength: number;
  keepShort?: (word: string) => boolean;
  max: number;
}

export function termsOf(text: string, options: TermOptions): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const word of words(text)) {
    if (seen.has(word) || options.stop.has(word)) continue;
    if (word.length < options.minLength && !options.keepShort?.(word)) continue;
    seen.add(word);
    out.push(word);
    if (out.length >= options.max) break;
  }
  return out;
}

/**
 * Search queries, and the hits whose shared words expand them: English function words and
 * the vague words of questions, a list tuned on LoCoMo (a change to it moves recall).
 */
export const SEARCH_STOP = stopSet(ENGLISH, CONTRACTIONS, VAGUE);

/** Single latin letters carry no meaning on their own; single CJK characters and digits do. */
const meaningfulAlone = (word: string): boolean => hasCjk(word) || /\d/.test(word);

export function searchTerms(text: string): string[] {
  return termsOf(text, { stop: SEARCH_STOP, minLength: 2, keepShort: meaningfulAlone, max: MAX_QUERY_TERMS });
}

/** Facts, and the prompts that look for them: written in French as often as in English. */
export const FACT_STOP = stopSet(ENGLISH, FRENCH, CONTRACTIONS, COURTESY);

export function factTerms(text: string, max = 16): string[] {
  return termsOf(text, { stop: FACT_STOP, minLength: 2, max });
}

/** A prompt or a project description matched against instincts: conversation with an agent is also left out. */
export const PROMPT_STOP = stopSet(ENGLISH, FRENCH, CONTRACTIONS, VAGUE, COURTESY, PROMPT_FILLER);

/** Two capitals name a thing in a prompt ("the PR", "CI is red"); two lower-case letters rarely do. */
const acronymsIn = (text: string): Set<string> => new Set((text.match(/\b[A-Z]{2}(?=s?\b)/g) ?? []).map((a) => a.toLowerCase()));

/** Words of at least 3 characters, numbers of 2 digits, and acronyms of two capitals. */
export function promptTerms(text: string, max = 32): string[] {
  const acronyms = acronymsIn(text);
  return termsOf(text, { stop: PROMPT_STOP, minLength: 3, keepShort: (w) => /^\d{2,}$/.test(w) || acronyms.has(w), max });
}

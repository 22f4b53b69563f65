/**
 * The signal tracker: user preferences and corrections read from prompts, in English
 * and French. Code blocks are skipped; each signal is normalised (lower case, collapsed
 * spaces, neutral prefixes removed, negatives kept), deduplicated per session, at most 10
 * per session. Only what the user wrote is read (text/authored.ts): a preference is said,
 * not pasted.
 */
import { slugify, truncate } from '../../core/text.js';
import { COURTESY, CONTRACTIONS, ENGLISH, FRENCH, INSTRUCTION_WORDS, stopSet } from '../../text/stopwords.js';
import { authoredSentences } from '../../text/authored.js';
import { codeTokens } from '../../text/words.js';
import type { Obs } from '../observation.js';
import { type Candidate, backtick } from './candidate.js';
import { concreteTerms } from './terms.js';

export type SignalType = 'explicit' | 'principle' | 'correction';

export interface Signal {
  type: SignalType;
  /** Normalised text: the form signals are grouped by. */
  signal: string;
  raw: string;
  shape: SignalShape;
}

export type SignalShape =
  /** `refused`: said as a refusal ("don't use X, use Y"), which is a correction. */
  | { kind: 'use'; use: string; not: string; refused?: true }
  | { kind: 'always'; what: string }
  | { kind: 'never'; what: string }
  | { kind: 'prefer'; what: string }
  | { kind: 'principle'; name: string };

export interface SessionSignal extends Signal {
  sessionId: string;
  ts: string;
}

export const MAX_SIGNALS_PER_SESSION = 10;
export const MAX_PROMPT_CHARS = 1500;

const FILLER =
  /^(?:(?:ok(?:ay)?|also|and|but|so|please|pls|hey|actually|remember|btw|again|alors|et|mais|aussi|stp|svp|s'il te pla[iî]t|merci de|rappel)[,:!]?\s+)+/;
const NEUTRAL =
  /^(?:i think(?: that)?|i believe|we should|you should|let'?s|il faut(?: que)?|je pense que|on devrait|tu devrais|it would be (?:good|better) to)\s+/;
const CORRECTION_PREFIX = /^(?:no|nope|wrong|non|nan)\b[,.!:;]?\s*/;
const TOLD_YOU =
  /^(?:i (?:already )?(?:told|said to) you(?: (?:before|already|earlier|again|twice|(?:so )?many times))?(?: to)?|as i said|i said|je t'?ai (?:déjà )?dit(?: de| que)?|comme je (?:l'ai|te l'ai) dit)[,:]?\s+/;

const PRINCIPLES: readonly [RegExp, string][] = [
  [/\b(?:ssot|single source of truth)\b/, 'ssot'],
  [/\bdry\b(?! run)/, 'dry'],
  [/\bkiss\b/, 'kiss'],
  [/\byagni\b/, 'yagni'],
  [/\blibrary[- ]first\b/, 'library-first'],
  [/\b(?:tdd|test[- ]driven)\b/, 'tdd'],
];

const STOP_WORDS = stopSet(ENGLISH, FRENCH, CONTRACTIONS, COURTESY, INSTRUCTION_WORDS);

/** Words that qualify what not to use without naming it ("plain pytest", "bare npm"). */
const QUALIFIERS = new Set(['plain', 'bare', 'raw', 'just', 'directly', 'direct', 'simple']);

const contentWords = (text: string): string[] => codeTokens(text.toLowerCase()).filter((w) => !STOP_WORDS.has(w));

/**
 * The key of "use A, not B": the words that tell A from B, so "use pnpm test, not npm test" and
 * "use pnpm, not npm" are one preference, and "uv run pytest, not plain pytest" is
 * "uv run pytest, not pytest". Pure.
 */
export function useKey(use: string, not: string): string {
  const a = contentWords(use);
  const b = contentWords(not).filter((w) => !QUALIFIERS.has(w));
  const shared = new Set(a.filter((w) => b.includes(w)));
  const own = (words: string[]) => (words.some((w) => !shared.has(w)) ? words.filter((w) => !shared.has(w)) : words);
  const slug = (words: string[]) => slugify(words.slice(0, 5).join(' '), 60);
  return `pref:use-${slug(own(a))}-not-${slug(own(b).length ? own(b) : contentWords(not))}`;
}

/** Up to five content words, slugified: the grouping key of a signal's subject. */
export function contentSlug(text: string): string {
  return slugify(contentWords(text).slice(0, 5).join(' '), 60);
}

const clause = (text: string): string =>
  text
    .split(/[,;:]|\s+(?:and|but|because|since|car|parce que|mais)\s+/)[0]
    ?.trim()
    .replace(/[.!?]+$/, '') ?? '';
/** Where or how politely it was said ("in this repo", "here", "please"): not part of what to use. */
const PLACE_OR_COURTESY =
  /(?:\s+(?:(?:in|for|on|within)\s+(?:this|the|our|that)\s+(?:repo(?:sitory)?|project|codebase|code|one)|here|anymore|from now on|going forward|please|pls|ici|svp|stp|dans ce (?:projet|d[ée]p[ôo]t)))+$/;
const cleanTerm = (text: string): string =>
  text
    .replace(/^(?:the|a|an|le|la|les|un|une|des)\s+/, '')
    .replace(/[.!?,;:]+$/, '')
    .replace(PLACE_OR_COURTESY, '')
    .trim();

/** "Don't use print for logging, use the logger": what to use instead is the rule, not half of it. */
function neverOrInstead(what: string): SignalShape {
  const instead = /^(?:use\s+)?(.+?)\s*[,;]\s*(?:instead\s+)?(?:use|call|run|utilise[rz]?)\s+(.+)$/.exec(what);
  if (instead)
    return { kind: 'use', use: cleanTerm(clause(instead[2] as string)), not: cleanTerm(clause(instead[1] as string)), refused: true };
  return { kind: 'never', what: clause(what) };
}

function shapeOf(sentence: string): SignalShape | undefined {
  const s = sentence;
  const use =
    /^(?:use|utilise[rz]?|run|lance[rz]?)\s+(.+?)\s*,?\s+(?:and\s+)?(?:not|never|instead of|rather than|et pas|pas|non|jamais|plutôt que|au lieu de)\s+(.+)$/.exec(
      s,
    ) ??
    /\bprefer\s+(.+?)\s+(?:over|to|instead of|rather than)\s+(.+)$/.exec(s) ??
    /\bpr[ée]f[èe]re[rz]?\s+(.+?)\s+(?:à|plutôt que|au lieu de)\s+(.+)$/.exec(s);
  if (use) return { kind: 'use', use: cleanTerm(clause(use[1] as string)), not: cleanTerm(clause(use[2] as string)) };
  const instead = /^(?:instead of|au lieu de|plutôt que)\s+(.+?),?\s+(?:use|run|call|utilise[rz]?|lance[rz]?)\s+(.+)$/.exec(s);
  if (instead) return { kind: 'use', use: cleanTerm(clause(instead[2] as string)), not: cleanTerm(clause(instead[1] as string)) };
  const always =
    /^(?:(?:we|you|on|tu)\s+)?(?:(?:should|must|need to|dois|doit)\s+)?(?:always|toujours|from now on|going forward|à partir de maintenant|désormais)[,:]?\s+(.+)$/.exec(
      s,
    );
  if (always) return { kind: 'always', what: clause(always[1] as string) };
  const never =
    /^(?:(?:you|tu)\s+(?:should\s+|must\s+|dois\s+)?)?(?:never|don'?t(?: ever)?|do not(?: ever)?|avoid|jamais|ne jamais|n'utilise[rz]? (?:jamais|pas)|arr[êe]te[rz]? (?:de |d')|[ée]vite[rz]? (?:de |d')|pas de)\s*(.+)$/.exec(
      s,
    ) ?? /^stop\s+(\w+ing\b.*)$/.exec(s);
  if (never) return neverOrInstead(never[1] as string);
  const frenchNot = /^ne\s+(\S+)\s+(?:pas|jamais|plus)\s+(.+)$/.exec(s);
  if (frenchNot) return { kind: 'never', what: clause(`${frenchNot[1]} ${frenchNot[2]}`) };
  const prefer = /^(?:i|we|je|on)\s+(?:(?:would|'d)\s+)?(?:prefer|préfère|prefere)\s+(.+)$/.exec(s);
  if (prefer) return { kind: 'prefer', what: clause(prefer[1] as string) };
  for (const [re, name] of PRINCIPLES) if (re.test(s)) return { kind: 'principle', name };
  return undefined;
}

function normalise(shape: SignalShape): string {
  switch (shape.kind) {
    case 'use':
      return `use ${shape.use} not ${shape.not}`;
    case 'always':
      return `always ${shape.what}`;
    case 'never':
      return `never ${shape.what}`;
    case 'prefer':
      return `prefer ${shape.what}`;
    case 'principle':
      return `principle ${shape.name}`;
  }
}

/** A clause that starts with "always" or "never" after a comma, a semicolon or an "and": a rule given beside a task. */
const TRAILING_RULE =
  /(?:[,;]\s*(?:(?:and|but|et|mais)\s+)?(?:also\s+)?|\s(?:and|but|et|mais)\s+(?:also\s+)?)((?:always|never|toujours|jamais)\b.+)$/;

/** The user's own sentences, lower-cased; none when what they wrote is too long to be a preference. */
function sentences(prompt: string): string[] {
  const own = authoredSentences(prompt, { lists: false });
  if (own.join(' ').length > MAX_PROMPT_CHARS) return [];
  return own.map((s) => s.toLowerCase());
}

/** The signals of one prompt, in order. */
export function extractSignals(prompt: string): Signal[] {
  const out: Signal[] = [];
  for (const raw of sentences(prompt)) {
    let s = raw.replace(FILLER, '');
    let correction = false;
    if (CORRECTION_PREFIX.test(s)) {
      s = s.replace(CORRECTION_PREFIX, '').replace(FILLER, '');
      correction = true;
    }
    if (TOLD_YOU.test(s)) {
      s = s.replace(TOLD_YOU, '');
      correction = true;
    }
    s = s.replace(NEUTRAL, '').replace(FILLER, '');
    // A rule said after a task in the same sentence ("refactor add, and always run pnpm lint after editing").
    const shape = shapeOf(s) ?? shapeOf(TRAILING_RULE.exec(s)?.[1] ?? '');
    if (!shape) continue;
    if (shape.kind === 'use' && (!shape.use || !shape.not)) continue;
    if ((shape.kind === 'always' || shape.kind === 'never' || shape.kind === 'prefer') && shape.what.length < 3) continue;
    const refused = shape.kind === 'never' || (shape.kind === 'use' && shape.refused === true);
    const type: SignalType = shape.kind === 'principle' ? 'principle' : correction || refused ? 'correction' : 'explicit';
    out.push({ type, signal: normalise(shape), raw: truncate(raw, 300), shape });
  }
  return out;
}

/** The session's signals: deduplicated by normalised form, at most 10. */
export function sessionSignals(observations: readonly Obs[]): SessionSignal[] {
  const seen = new Set<string>();
  const out: SessionSignal[] = [];
  for (const o of observations) {
    if (o.event !== 'prompt') continue;
    for (const signal of extractSignals(o.input)) {
      if (seen.has(signal.signal)) continue;
      seen.add(signal.signal);
      out.push({ ...signal, sessionId: o.sessionId, ts: o.ts });
      if (out.length >= MAX_SIGNALS_PER_SESSION) return out;
    }
  }
  return out;
}

/** Objects too general to be what a rule is about ("never touch the code"). */
const VAGUE_OBJECTS = /^(?:it|this|that|them|things?|stuff|code|the code|files?|changes?|tests?|everything|anything|something)$/;

/**
 * What a "never/always" sentence is about when it names no tool or file: the object of its verb,
 * when that is a particular thing ("run the e2e suite unless I ask": "e2e suite"). Pure.
 */
export function statedObject(what: string): string | undefined {
  const m =
    /^(?:run|rerun|touch|edit|change|modify|delete|remove|deploy|push to|commit to|start|restart|call|use)\s+(?:the\s+|our\s+|my\s+|any\s+)?(.+?)(?:\s+(?:unless|without|before|after|when|whenever|if|until)\b.*)?$/.exec(
      what,
    );
  const object = m?.[1]?.trim();
  if (!object || object.split(/\s+/).length > 4 || VAGUE_OBJECTS.test(object)) return undefined;
  return object;
}

function condition(what: string): { when: string; act: string } {
  const m = /^(.+?)\s+(before|after|when|whenever|if|once|avant de|après|quand|si)\s+(.+)$/.exec(what);
  if (m) return { act: m[1] as string, when: `${m[2]} ${m[3]}` };
  return { act: what, when: '' };
}

/** A signal as a candidate preference (global: preferences belong to the person). */
export function signalCandidate(signal: SessionSignal, projectName: string): Candidate {
  const shape = signal.shape;
  const base = {
    category: 'preference' as const,
    domain: 'general' as const,
    project: '',
    projectName,
    sessionId: signal.sessionId,
    ts: signal.ts,
    evidence: [`User: "${signal.raw}"`],
    miner: 'preference' as const,
    notable: true,
    facts: { signal: signal.signal, type: signal.type },
  };
  switch (shape.kind) {
    case 'use': {
      return {
        ...base,
        key: useKey(shape.use, shape.not),
        title: `Use ${shape.use}, not ${shape.not}`,
        trigger: `when choosing between ${shape.use} and ${shape.not}`,
        action: `Use ${shape.use}, not ${shape.not}.`,
        explain: `The user asked for ${shape.use} instead of ${shape.not}.`,
        subjects: concreteTerms(`${shape.use} ${shape.not}`),
        tags: ['preference', signal.type],
        contradicts: [useKey(shape.not, shape.use)],
      };
    }
    case 'always':
    case 'never':
    case 'prefer': {
      const { when, act } = condition(shape.what);
      const slug = contentSlug(shape.what);
      const verb = shape.kind === 'always' ? 'Always' : shape.kind === 'never' ? 'Never' : 'Prefer';
      const named = concreteTerms(shape.what);
      const object = named.length ? undefined : statedObject(shape.what);
      const subjects = object ? [object] : named;
      // The sentence was read lower-cased: its speaker is "I" again.
      const said = (text: string) => text.replace(/\bi\b/g, 'I');
      const doing = object ? `when about to ${shape.what.replace(/\s+(?:unless|without|until)\b.*$/, '')}` : undefined;
      return {
        ...base,
        key: `pref:${shape.kind}-${slug}`,
        title: `${verb} ${truncate(said(shape.what), 70)}`,
        trigger: when ? `${when}` : (doing ?? (subjects[0] ? `when working with ${backtick(subjects[0])}` : 'in every session')),
        action: `${verb} ${said(act)}.`,
        explain: `The user said: "${truncate(signal.raw, 160)}"`,
        subjects,
        tags: ['preference', signal.type],
        contradicts: shape.kind === 'always' ? [`pref:never-${slug}`] : shape.kind === 'never' ? [`pref:always-${slug}`] : [],
      };
    }
    case 'principle':
      return {
        ...base,
        key: `pref:principle-${shape.name}`,
        title: `Apply ${shape.name.toUpperCase()}`,
        trigger: 'when designing or refactoring code',
        action: `Apply the ${shape.name.toUpperCase()} principle the user asks for.`,
        explain: `The user invoked ${shape.name.toUpperCase()}: "${truncate(signal.raw, 160)}"`,
        subjects: [],
        tags: ['preference', 'principle'],
      };
  }
}

/**
 * Does a later memory restate a value an earlier one gave? ("the deadline is March 3" ->
 * "the deadline moved to March 10"; "p95 is 240 ms" -> "p95 improved to 180 ms"; "prefers
 * tabs for indentation" -> "now prefers spaces for indentation".) Pure; usable on facts and
 * on plain memories alike.
 *
 * Method: pull typed values out of both texts (dates, versions, times, numbers with their
 * unit, and any values the caller names, such as a fact's target entity), compare what is
 * left (the attribute words, minus stop words and verbs of change). It is a restatement
 * when the two talk about the same attribute and a value of the same kind differs:
 * - typed values (date, version, time, number:unit, entity): shared attribute words making up
 *   at least half of the shorter text's attribute words;
 * - no typed value: the texts differ in a short word slot (at most 2 words each side) with
 *   at least 2 shared attribute words, or 1 when the newer text says it changed ("now",
 *   "instead", "switched", "désormais", ...).
 */
import { CHANGE_WORDS, CONTRACTIONS, ENGLISH, FRENCH, stopSet } from '../text/stopwords.js';
import { wordSet } from '../text/words.js';
import { escapeRegExp } from '../core/text.js';

export type ValueKind = 'date' | 'version' | 'time' | 'entity' | 'word' | `number:${string}`;

export interface Restatement {
  restates: boolean;
  kind?: ValueKind;
  /** Every kind of value that differs (typed kinds before caller-named entities). */
  kinds: ValueKind[];
  /** Attribute words both texts share. */
  attribute: string[];
  olderValues: string[];
  newerValues: string[];
  reason: string;
}

export interface RestatementOptions {
  /** Values the caller knows (e.g. the fact's target entity name), one list per text. */
  olderValues?: readonly string[];
  newerValues?: readonly string[];
  /** Words that never count as the attribute (e.g. the subject's name, the relation verb). */
  ignore?: readonly string[];
  /**
   * Plain memories, whose subject nobody set aside: a text naming something the other does not
   * ("the API timeout" and "the DB timeout") is about another subject, whatever the values.
   */
  oneSubject?: boolean;
}

const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre';
/** Month names alone (no day): full names only, and not "may", which is mostly a verb. */
const BARE_MONTHS =
  'january|february|march|april|june|july|august|september|october|november|december|janvier|février|fevrier|avril|juin|juillet|août|septembre|octobre|novembre|décembre';
const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche';

const UNIT_ALIASES: Record<string, string> = {
  ms: 'ms',
  millisecond: 'ms',
  milliseconds: 'ms',
  s: 's',
  sec: 's',
  secs: 's',
  second: 's',
  seconds: 's',
  seconde: 's',
  secondes: 's',
  min: 'min',
  mins: 'min',
  minute: 'min',
  minutes: 'min',
  h: 'h',
  hr: 'h',
  hrs: 'h',
  hour: 'h',
  hours: 'h',
  heure: 'h',
  heures: 'h',
  d: 'day',
  day: 'day',
  days: 'day',
  jour: 'day',
  jours: 'day',
  week: 'week',
  weeks: 'week',
  semaine: 'week',
  semaines: 'week',
  month: 'month',
  months: 'month',
  mois: 'month',
  year: 'year',
  years: 'year',
  an: 'year',
  ans: 'year',
  année: 'year',
  années: 'year',
  '%': '%',
  percent: '%',
  pourcent: '%',
  kb: 'kb',
  mb: 'mb',
  gb: 'gb',
  tb: 'tb',
  k: 'k',
  x: 'x',
  '€': 'eur',
  eur: 'eur',
  euros: 'eur',
  euro: 'eur',
  $: 'usd',
  usd: 'usd',
  dollars: 'usd',
  rps: 'rps',
  qps: 'rps',
  'req/s': 'rps',
  users: 'users',
  utilisateurs: 'users',
  tokens: 'tokens',
  lines: 'lines',
  lignes: 'lines',
};

const UNITS =
  'ms|milliseconds?|secs?|seconds?|secondes?|s|mins?|minutes?|hrs?|hours?|heures?|h|days?|jours?|d|weeks?|semaines?|months?|mois|years?|ans?|années?|%|percent|pourcent|kb|mb|gb|tb|k|x|€|eur|euros?|usd|dollars|req\\/s|rps|qps|users|utilisateurs|tokens|lines|lignes';

const VALUE_PATTERNS: { kind: (m: RegExpExecArray) => ValueKind; re: RegExp; value: (m: RegExpExecArray) => string }[] = [
  { kind: () => 'date', re: /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?Z?)?/g, value: (m) => m[0].slice(0, 10) },
  {
    kind: () => 'date',
    re: new RegExp(
      `\\b(?:(${MONTHS})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})(?:er|st|nd|rd|th)?\\s+(${MONTHS}))(?:,?\\s+(\\d{4}))?\\b`,
      'giu',
    ),
    value: (m) => `${(m[1] ?? m[4] ?? '').toLowerCase().slice(0, 3)}-${m[2] ?? m[3]}${m[5] ? `-${m[5]}` : ''}`,
  },
  { kind: () => 'date', re: new RegExp(`\\b(${BARE_MONTHS}|${WEEKDAYS})\\b`, 'giu'), value: (m) => (m[1] ?? '').toLowerCase().slice(0, 3) },
  // 1.2.3, or 1.2 when marked as a version (^1.2, ~1.2, @1.2, v1.2): a bare 1.5 is a number.
  {
    kind: () => 'version',
    re: /(?:[@^~=]\s?v?|\bv)(\d+(?:\.\d+)+(?:-[\w.]+)?)|\b(\d+\.\d+\.\d+(?:\.\d+)*(?:-[\w.]+)?)/g,
    value: (m) => m[1] ?? m[2] ?? '',
  },
  { kind: () => 'time', re: /\b(\d{1,2})[:h](\d{2})\b/g, value: (m) => `${m[1]?.padStart(2, '0')}:${m[2]}` },
  {
    kind: (m) => `number:${unitOf(m[1] ?? m[3])}`,
    re: new RegExp(`([$€])?\\s?(\\d+(?:[.,]\\d+)?)\\s?(${UNITS})?(?![\\p{L}\\d])`, 'giu'),
    value: (m) => (m[2] ?? '').replace(',', '.'),
  },
];

function unitOf(raw: string | undefined): string {
  if (!raw) return '';
  return UNIT_ALIASES[raw.toLowerCase()] ?? raw.toLowerCase();
}

/** A value given in words ("dark" -> "light", "tabs" -> "spaces") is at most this many words. */
export const MAX_WORD_SLOT = 2;

/** Share of the shorter text's attribute words that both must have. */
export const MIN_ATTRIBUTE_COVERAGE = 0.5;

// Function words, and the verbs of change and of holding a value: the rest is the attribute.
const STOP = stopSet(ENGLISH, FRENCH, CONTRACTIONS, CHANGE_WORDS);

const CHANGE_MARKER =
  /\b(now|instead|switched|changed|moved|updated|improved|no longer|anymore|from now on|these days|nowadays)\b|(désormais|maintenant|plutôt|à la place|n['’]\w+ plus|est passée?|a changé|a été déplacée?)/iu;

/** Whether a text says its value changed ("now", "instead", "switched", "désormais", ...). */
export const saysChanged = (text: string): boolean => CHANGE_MARKER.test(text);

interface Parsed {
  values: Map<ValueKind, Set<string>>;
  rest: Set<string>;
}

function addValue(map: Map<ValueKind, Set<string>>, kind: ValueKind, value: string): void {
  if (!value) return;
  let set = map.get(kind);
  if (!set) map.set(kind, (set = new Set()));
  set.add(value);
}

/** A case-insensitive whole-word pattern for a literal phrase. */
function wholeWord(phrase: string): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, 'giu');
}

/** Texts read at most: past it a cache starts again (an LRU's bookkeeping cost more than it saved). */
const CACHED_TEXTS = 4096;
function remember<V>(cache: Map<string, V>, text: string, value: V): void {
  if (cache.size >= CACHED_TEXTS) cache.clear();
  cache.set(text, value);
}

/** Parsed plain texts (no names given, none ignored), read once however many memories each is compared with. */
const parsedCache = new Map<string, Parsed>();

function parse(text: string, known: readonly string[], ignore: ReadonlySet<string>): Parsed {
  const plain = known.length === 0 && ignore.size === 0;
  const cached = plain ? parsedCache.get(text) : undefined;
  if (cached) return cached;
  const parsed = parseText(text, known, ignore);
  if (plain) remember(parsedCache, text, parsed);
  return parsed;
}

function parseText(text: string, known: readonly string[], ignore: ReadonlySet<string>): Parsed {
  const values = new Map<ValueKind, Set<string>>();
  let rest = ` ${text.toLowerCase()} `;
  for (const p of VALUE_PATTERNS) {
    p.re.lastIndex = 0;
    rest = rest.replace(p.re, (...args: unknown[]) => {
      const m = args.slice(0, -2) as unknown as RegExpExecArray;
      addValue(values, p.kind(m), p.value(m));
      return ' ';
    });
  }
  for (const name of known) {
    const n = name.toLowerCase().trim();
    if (!n) continue;
    addValue(values, 'entity', n);
    rest = rest.replace(wholeWord(n), ' ');
  }
  const kept = new Set([...wordSet(rest)].filter((w) => !STOP.has(w) && !ignore.has(w) && !/^\d+$/.test(w)));
  return { values, rest: kept };
}

const sameSet = (a: ReadonlySet<string>, b: ReadonlySet<string>): boolean => a.size === b.size && [...a].every((x) => b.has(x));

const NUMBERED = new RegExp(
  `(?<![\\p{L}\\p{N}])(\\p{L}{2,})(?:\\s+#?|-)(\\d+)(?![\\p{L}\\p{N}]|[.,:]\\d|\\s?(?:${UNITS})(?![\\p{L}\\d]))`,
  'giu',
);
/** A numbered name among a text's first words is what it is about ("Server web-1 has …", "note 3: …"). */
const SUBJECT_WORDS = 3;
const CALENDAR = new RegExp(`^(?:${MONTHS}|${WEEKDAYS})$`, 'iu');

/** A text is compared with up to hundreds of others as memories are stored: its names are read once. */
const numberedCache = new Map<string, Map<string, { n: string; at: number }>>();

/** "module 2", "room 4", "PR #17", "web-1": a name with a number (not a month's day, not an amount), with its count of words before it. */
function numberedAt(text: string): Map<string, { n: string; at: number }> {
  const cached = numberedCache.get(text);
  if (cached) return cached;
  const names = new Map<string, { n: string; at: number }>();
  for (const m of text.matchAll(NUMBERED)) {
    const name = (m[1] as string).toLowerCase();
    if (STOP.has(name) || CALENDAR.test(name)) continue;
    // Only a name among the first words is a subject: past them, the count needs no exact value.
    const head = text
      .slice(0, m.index)
      .split(/\s+/, SUBJECT_WORDS + 1)
      .filter(Boolean).length;
    names.set(name, { n: m[2] as string, at: head });
  }
  remember(numberedCache, text, names);
  return names;
}

/**
 * Two texts about differently numbered things ("module 0 takes 10 s", "module 1 takes 11 s")
 * that differ in another value too: the numbers name two things, not one changed value. One
 * where the numbered name is all that differs ("uses node 18" -> "uses node 20") is an update.
 */
function namesAnother(older: [string, Parsed], newer: [string, Parsed], differing: readonly ValueKind[]): string | undefined {
  const a = numberedAt(older[0]);
  const b = numberedAt(newer[0]);
  const found = [...a].find(([name, x]) => b.has(name) && b.get(name)?.n !== x.n);
  if (!found) return undefined;
  const [name, was] = found;
  const now = b.get(name) as { n: string; at: number };
  const two = `${name} ${was.n} and ${name} ${now.n} are two things`;
  // What both texts are about, named with another number: two things whatever else is alike ("web-1 has 16 GB", "web-2 has 32 GB").
  if (was.at < SUBJECT_WORDS && now.at < SUBJECT_WORDS) return two;
  // The plain numbers other than the names' own: "has 12 chairs" -> "has 10 chairs".
  const plain = (p: Parsed, names: Map<string, { n: string }>) => {
    const own = new Set([...names.values()].map((x) => x.n));
    return new Set([...(p.values.get('number:') ?? [])].filter((n) => !own.has(n)));
  };
  const besides = differing.some((k) => k !== 'number:') || !sameSet(plain(older[1], a), plain(newer[1], b));
  return besides ? two : undefined;
}

export function detectRestatement(older: string, newer: string, options: RestatementOptions = {}): Restatement {
  const ignore = new Set([...(options.ignore ?? [])].flatMap((w) => [...wordSet(w)]));
  // The subject is not a value: "1 uses mise" must not read as a number 1.
  const strip = (text: string) =>
    (options.ignore ?? []).reduce((t, phrase) => (phrase.trim() ? t.replace(wholeWord(phrase.trim()), ' ') : t), text);
  const olderText = strip(older);
  const newerText = strip(newer);
  const a = parse(olderText, options.olderValues ?? [], ignore);
  const b = parse(newerText, options.newerValues ?? [], ignore);
  const attribute = [...a.rest].filter((w) => b.rest.has(w));
  // The words only one text has: a value given in words, or another subject.
  const onlyOld = [...a.rest].filter((w) => !b.rest.has(w));
  const onlyNew = [...b.rest].filter((w) => !a.rest.has(w));
  const none = (reason: string): Restatement => ({ restates: false, kinds: [], attribute, olderValues: [], newerValues: [], reason });

  // Every kind of value present in both texts with different values; typed kinds first, caller-named entities last.
  const differing = [...a.values.entries()]
    .filter(([kind, av]) => {
      const bv = b.values.get(kind);
      return bv !== undefined && !sameSet(av, bv);
    })
    .map(([kind]) => kind)
    .sort((x, y) => Number(x === 'entity') - Number(y === 'entity'));
  const kind = differing[0];
  const another = kind === undefined ? undefined : namesAnother([olderText, a], [newerText, b], differing);
  if (another) return none(another);
  if (kind !== undefined) {
    if (attribute.length < 1) return none(`a ${kind} differs but the texts share no attribute`);
    // Each names something the other does not ("the API timeout" and "the DB timeout", "the test
    // suite takes" and "the linter takes"): two subjects with a value each, not one value changed.
    if (options.oneSubject && onlyOld.length && onlyNew.length)
      return none(`two subjects: ${onlyOld.join(' ')} in the older text, ${onlyNew.join(' ')} in the newer`);
    // The shared attribute must be most of what the shorter text says besides its values:
    // two long texts sharing a stray word ("said", a project name) are not about one thing.
    const coverage = attribute.length / Math.max(1, Math.min(a.rest.size, b.rest.size));
    if (coverage < MIN_ATTRIBUTE_COVERAGE)
      return none(
        `the shared attribute (${attribute.join(' ')}) is ${coverage.toFixed(2)} of the shorter text, under ${MIN_ATTRIBUTE_COVERAGE}`,
      );
    const av = a.values.get(kind) as Set<string>;
    const bv = b.values.get(kind) as Set<string>;
    // A newer text naming several values carries its own history ("moved from November 15 to
    // November 22"): it updates the text that gave one of them, not any text on the subject.
    if (bv.size > 1 && ![...av].some((v) => bv.has(v))) return none(`the newer text changes its own earlier ${kind}, not this one`);
    return {
      restates: true,
      kind,
      kinds: differing,
      attribute,
      olderValues: [...av].filter((v) => !bv.has(v)),
      newerValues: [...bv].filter((v) => !av.has(v)),
      reason: `same attribute (${attribute.join(' ')}), ${kind} changed`,
    };
  }
  if (a.values.size > 0 || b.values.size > 0) return none('no value of a shared kind differs');

  if (onlyOld.length === 0 || onlyNew.length === 0) return none('no value slot differs');
  if (onlyOld.length > MAX_WORD_SLOT || onlyNew.length > MAX_WORD_SLOT) return none('the texts differ in more than a value');
  const needed = saysChanged(newer) ? 1 : 2;
  if (attribute.length < needed) return none(`fewer than ${needed} shared attribute words`);
  return {
    restates: true,
    kind: 'word',
    kinds: ['word'],
    attribute,
    olderValues: onlyOld,
    newerValues: onlyNew,
    reason: `same attribute (${attribute.join(' ')}), wording of the value changed`,
  };
}

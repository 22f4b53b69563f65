/**
 * Turning free text into the terms of full-text queries: words (lower-case, stop words
 * removed), plus the tokens the trigram index serves better (CJK runs, code identifiers,
 * paths). The store quotes each term, so no query can be a syntax error.
 */

/** Longer queries are cut here: a 1 MB paste must not become a 1 MB FTS expression. */
export const MAX_QUERY_CHARS = 2000;
export const MAX_QUERY_TERMS = 48;

// A compact English stop list (function words, auxiliaries, wh-words, pronouns).
const STOP = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
  can could did do does doing down during each few for from further had has have having he her here hers herself him himself
  his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other our ours
  ourselves out over own same she should so some such than that the their theirs them themselves then there these they this
  those through to too under until up very was we were what when where which while who whom why will with would you your
  yours yourself yourselves also get got ever really much many one ones thing things like did does done let us may might
  must shall s t d ll m re ve don doesn didn isn wasn aren weren won wouldn shouldn couldn haven hasn hadn kind sort`
    .split(/\s+/)
    .filter(Boolean),
);

export function isStopword(word: string): boolean {
  return STOP.has(word);
}

/** Removes NUL and other control characters and caps the length. */
export function sanitizeQuery(text: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ');
  return cleaned.length > MAX_QUERY_CHARS ? cleaned.slice(0, MAX_QUERY_CHARS) : cleaned;
}

const WORD = /[\p{L}\p{N}_]+/gu;
// Script extensions, so marks shared by scripts (the katakana prolonged sound mark ー) stay in a run.
const CJK_CLASS = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}\\p{scx=Thai}';
const CJK = new RegExp(`[${CJK_CLASS}]`, 'u');
const CJK_RUNS = new RegExp(`[${CJK_CLASS}]+`, 'gu');

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/**
 * Runs of one to `maxWords` adjacent words of the text, as written (case kept), skipping
 * runs that start or end with a stop word or a single letter: the phrases that could be a name.
 */
export function candidatePhrases(text: string, maxWords = 3, maxPhrases = 64): string[] {
  const words = [...text.matchAll(WORD)].map((m) => m[0]);
  const weak = (w: string) => w.length < 2 || STOP.has(w.toLowerCase());
  const out = new Set<string>();
  for (let i = 0; i < words.length && out.size < maxPhrases; i++) {
    if (weak(words[i] as string)) continue;
    for (let n = 1; n <= maxWords && i + n <= words.length; n++) {
      if (!weak(words[i + n - 1] as string)) out.add(words.slice(i, i + n).join(' '));
    }
  }
  return [...out].slice(0, maxPhrases);
}

/** Lower-cased content words, stop words and duplicates removed, in query order. */
export function contentTerms(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0];
    if (STOP.has(w) || seen.has(w)) continue;
    // Single latin letters carry no meaning on their own; single CJK characters do.
    if (w.length === 1 && !hasCjk(w) && !/\d/.test(w)) continue;
    seen.add(w);
    out.push(w);
    if (out.length >= MAX_QUERY_TERMS) break;
  }
  return out;
}

/**
 * Tokens the porter index misses: runs of CJK text, and code identifiers (snake_case,
 * camelCase, dotted or slashed paths, words mixing letters and digits). Each becomes a
 * trigram phrase; tokens shorter than 3 characters cannot use the trigram index.
 */
export function trigramTokens(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/[\p{L}\p{N}_./:-]+/gu)) {
    const raw = m[0].replace(/^[./:-]+|[./:-]+$/g, '');
    if (raw.length < 3) continue;
    if (hasCjk(raw)) {
      for (const run of raw.match(CJK_RUNS) ?? []) {
        if (run.length >= 3) out.add(run);
      }
      continue;
    }
    // The same shapes store/documents-schema.ts sends to the trigram index.
    const identifier =
      raw.includes('_') || /[a-z][A-Z]/.test(raw) || /[a-zA-Z0-9][./][a-zA-Z]/.test(raw) || /[a-zA-Z]\d|\d[a-zA-Z]/.test(raw);
    if (identifier) out.add(raw);
  }
  return [...out].slice(0, MAX_QUERY_TERMS);
}

/** CJK runs of one or two characters, which only a substring scan can find. */
export function shortCjkRuns(text: string): string[] {
  const runs = text.match(CJK_RUNS) ?? [];
  return [...new Set(runs.filter((r) => r.length < 3))].slice(0, 8);
}

/** Whether the user wrote FTS5 syntax on purpose (phrases, boolean operators, prefix stars, NEAR). */
export function looksLikeFtsSyntax(text: string): boolean {
  return /"|\*|\b(AND|OR|NOT)\b|NEAR\(|\^/.test(text);
}

/**
 * The two tokenizers: words (letters, digits and underscores; what terms, stems, word sets
 * and the hash embedder are built from) and code tokens (identifiers with their dots,
 * slashes, colons and dashes: src/app.ts, node:fs, pkg.Func). Pure.
 */

const WORD = /[\p{L}\p{N}_]+/gu;
const CODE_TOKEN = /[\p{L}\p{N}_./:-]+/gu;

function* matches(text: string, re: RegExp): Generator<string> {
  for (const m of text.matchAll(re)) yield m[0];
}

/** Lower-case words in order, NFKC-normalised (a full-width or ligature letter reads as its plain form); lazy, so a caller can stop early. */
export function words(text: string): Generator<string> {
  return matches(text.toLowerCase().normalize('NFKC'), WORD);
}

/** Words as written (case kept), NFKC-normalised: for phrases that could be a name. */
export function wordsAsWritten(text: string): string[] {
  return [...matches(text.normalize('NFKC'), WORD)];
}

/** The distinct lower-case words of at least `minLength` characters: what text similarity compares. */
export function wordSet(text: string, minLength = 2): Set<string> {
  const out = new Set<string>();
  for (const w of words(text)) if (w.length >= minLength) out.add(w);
  return out;
}

/**
 * Code-like tokens as written (case kept, not normalised: they are matched as substrings of
 * the stored text), without the dots, slashes, colons and dashes that end a sentence or
 * open a flag at either end.
 */
export function codeTokens(text: string): string[] {
  const out: string[] = [];
  for (const raw of matches(text, CODE_TOKEN)) {
    const token = raw.replace(/^[./:-]+|[./:-]+$/g, '');
    if (token) out.push(token);
  }
  return out;
}

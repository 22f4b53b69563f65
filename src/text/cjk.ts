/** CJK (and Thai) text: scripts written without spaces between words. Pure. */

// Script extensions, so marks shared by scripts (the katakana prolonged sound mark ー) stay in a run.
const CJK_CLASS = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}\\p{scx=Thai}';
const CJK = new RegExp(`[${CJK_CLASS}]`, 'u');
const CJK_RUNS = new RegExp(`[${CJK_CLASS}]+`, 'gu');

export function hasCjk(text: string): boolean {
  return CJK.test(text);
}

/** The runs of CJK characters in the text, in order. */
export function cjkRuns(text: string): string[] {
  return text.match(CJK_RUNS) ?? [];
}

/** CJK runs of one or two characters, which only a substring scan can find (a trigram needs three). */
export function shortCjkRuns(text: string): string[] {
  return [...new Set(cjkRuns(text).filter((r) => r.length < 3))].slice(0, 8);
}

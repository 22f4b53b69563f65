/** Lower-case, ASCII-only slug for file names. */
export function slugify(text: string, maxLength = 80): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
  return slug || 'untitled';
}

/** Cuts text to at most `max` characters, marking the cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return text.slice(0, max);
  return `${text.slice(0, max - 1)}…`;
}

/** The first `max` characters of text, cut after a whole word when one ends in the last fifth (marked with …). */
export function headOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.search(/\s\S*$/);
  return `${space >= max * 0.8 ? cut.slice(0, space) : cut}…`;
}

/** The last `max` characters of text, starting at a whole word when one starts in the first fifth (marked with …). */
export function tailOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(text.length - max + 1);
  // Already at a word's start: nothing to give back.
  const space = /\s/.test(text.charAt(text.length - max)) ? -1 : cut.search(/\s/);
  return `…${space >= 0 && space <= max * 0.2 ? cut.slice(space + 1) : cut}`;
}

export function round(value: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Edit distance counting insertions, deletions, substitutions and swaps of neighbours (lsit -> list is 1). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((d[i - 1]?.[j] ?? 0) + 1, (d[i]?.[j - 1] ?? 0) + 1, (d[i - 1]?.[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (d[i - 2]?.[j - 2] ?? 0) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return d[a.length]?.[b.length] ?? 0;
}

/** The candidates within two edits of `word` (or sharing its first four letters), closest first. */
export function closestWords(word: string, candidates: readonly string[]): string[] {
  return candidates
    .map((c) => ({ c, d: editDistance(word, c) }))
    .filter(({ c, d }) => d <= 2 || (word.length >= 4 && c.startsWith(word.slice(0, 4))))
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .map(({ c }) => c);
}

/** A count and its noun, the noun in the plural unless the count is one ("3 sessions", "1 rule"). */
/** Dollars in cents, or to a hundredth of a cent when that is what it holds ($5.00, $0.0042, $4.9958). Pure. */
export const usd = (n: number): string => `$${n.toFixed(Math.abs(n * 100 - Math.round(n * 100)) < 1e-6 ? 2 : 4)}`;

export const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * Text as words: terminal escape sequences (colours, clearing the screen, setting the title),
 * control characters (NUL included) and bidi overrides removed; tabs and line breaks kept. Stored text is
 * printed to terminals later, where an escape would act.
 */
export function withoutControls(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex -- escape sequences are the point: CSI, OSC (to BEL or ST), and two-byte ones
      .replace(/\u001b(?:\[[0-9;?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|[@-Z\\-_])/g, '')
      // eslint-disable-next-line no-control-regex -- the remaining control characters (C0, DEL, C1: U+009B is a CSI), and the bidi overrides that show text in another order than it runs
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
  );
}

/**
 * Text with every character that shows nothing, or shows text in another order than it runs
 * (zero-width spaces and joiners, bidi marks and overrides, a soft hyphen), written as its
 * \\uXXXX escape: what a person is asked to approve must look like what will run.
 */
export const showInvisible = (text: string): string =>
  text.replace(
    /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** Text to match literally inside a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Shared pieces of injected context: one-line text and a character budget. Pure. */

/** Collapses whitespace and cuts to `max` characters: memory text never spans lines. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * Joins `head`, as many `items` as fit, then `tail`, within `budget` characters. Returns
 * the text and how many items made it.
 */
export function fitToBudget(
  head: readonly string[],
  items: readonly string[],
  tail: readonly string[],
  budget: number,
): { text: string; shown: number } {
  const size = (lines: readonly string[]): number => lines.reduce((n, l) => n + l.length + 1, 0);
  let used = size(head) + size(tail);
  const kept: string[] = [];
  for (const item of items) {
    if (used + item.length + 1 > budget) break;
    kept.push(item);
    used += item.length + 1;
  }
  const text = [...head, ...kept, ...tail].join('\n');
  return { text: text.length > budget ? text.slice(0, budget) : text, shown: kept.length };
}

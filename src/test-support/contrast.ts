/** WCAG 2 contrast between two CSS colours as computed styles give them (`rgb(…)` / `rgba(…)`). */

export type Rgba = [number, number, number, number];

export function parseColour(css: string): Rgba {
  const m = /^rgba?\(([^)]+)\)$/.exec(css.trim());
  if (!m?.[1]) throw new Error(`not a computed colour: ${css}`);
  const parts = m[1]
    .split(/[\s,/]+/)
    .filter(Boolean)
    .map(Number);
  const [r = 0, g = 0, b = 0, a = 1] = parts;
  return [r, g, b, a];
}

/** `top` painted over the opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((i) => (top[i] as number) * a + (bottom[i] as number) * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The ratio (1 to 21) of text in `fg` on the opaque `bg`. */
export function contrastRatio(fg: Rgba, bg: Rgba): number {
  const [hi, lo] = [luminance(over(fg, bg)), luminance(bg)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The opaque colour behind an element, from its own background up to the page's (white when none is set). */
export function backdrop(layers: readonly string[]): Rgba {
  let colour: Rgba = [255, 255, 255, 1];
  for (const layer of [...layers].reverse()) colour = over(parseColour(layer), colour);
  return colour;
}

/** Readable contrast, checked in the browser: every text under a selector against its background (WCAG 2 ratio). */
import type { Page } from 'playwright-core';

export interface LowContrast {
  text: string;
  ratio: number;
}

// Browser code, as source: the project's types have no DOM. SVG text is judged by its fill.
const CHECK = `({ selector, min }) => {
  const rgb = (css) => (css.match(/[\\d.]+/g) || []).map(Number);
  const lin = (c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = ([r, g, b]) => 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c;
    }
    return [255, 255, 255];
  };
  const out = [];
  for (const el of document.querySelectorAll(selector + ' *')) {
    const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim()).map((n) => n.textContent);
    if (own.length === 0) continue;
    const style = getComputedStyle(el);
    const fg = rgb(el instanceof SVGElement ? style.fill : style.color);
    const [a, b] = [luminance(fg), luminance(background(el))].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < min) out.push({ text: own.join(' ').slice(0, 60), ratio: Math.round(ratio * 100) / 100 });
  }
  return out;
}`;

/** The texts under `selector` whose contrast is below `min` (4.5:1 for body text). */
export function lowContrast(page: Page, selector: string, min = 4.5): Promise<LowContrast[]> {
  return page.evaluate(`(${CHECK})(${JSON.stringify({ selector, min })})`) as Promise<LowContrast[]>;
}

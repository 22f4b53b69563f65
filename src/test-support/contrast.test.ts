import { describe, expect, it } from 'vitest';
import { backdrop, contrastRatio, parseColour } from './contrast.js';

describe('contrast', () => {
  it('gives the WCAG ratios of known pairs', () => {
    expect(contrastRatio(parseColour('rgb(0, 0, 0)'), parseColour('rgb(255, 255, 255)'))).toBeCloseTo(21, 5);
    expect(contrastRatio(parseColour('rgb(255, 255, 255)'), parseColour('rgb(255, 255, 255)'))).toBeCloseTo(1, 5);
    // #767676 on white is the classic just-passing grey (4.54:1).
    expect(contrastRatio(parseColour('rgb(118, 118, 118)'), parseColour('rgb(255, 255, 255)'))).toBeCloseTo(4.54, 2);
  });

  it('paints translucent layers over what lies beneath', () => {
    // Half-transparent black over white is mid grey; transparent layers change nothing.
    const bg = backdrop(['rgba(0, 0, 0, 0.5)', 'rgba(0, 0, 0, 0)', 'rgb(255, 255, 255)']);
    expect(bg.slice(0, 3)).toEqual([127.5, 127.5, 127.5]);
    expect(backdrop(['rgba(0, 0, 0, 0)'])).toEqual([255, 255, 255, 1]);
  });

  it('refuses what is not a computed colour', () => {
    expect(() => parseColour('red')).toThrow(/not a computed colour/);
  });
});

import { describe, expect, it } from 'vitest';
import { createLayout } from './neural-layout.js';

const distance = (l: ReturnType<typeof createLayout>, a: number, b: number) =>
  Math.hypot((l.x[a] as number) - (l.x[b] as number), (l.y[a] as number) - (l.y[b] as number));

describe('the force layout', () => {
  it('pulls linked nodes together, pushes the rest apart, and cools down', () => {
    // Two triangles joined by nothing, plus coincident-start safety (node 6 alone).
    const layout = createLayout(7, [
      [0, 1],
      [1, 2],
      [2, 0],
      [3, 4],
      [4, 5],
      [5, 3],
    ]);
    let ticks = 0;
    while (layout.tick()) ticks++;
    expect(ticks).toBeGreaterThan(100);
    expect(ticks).toBeLessThan(400);
    expect(layout.tick()).toBe(false);
    expect([...layout.x, ...layout.y].every(Number.isFinite)).toBe(true);
    const within = Math.max(distance(layout, 0, 1), distance(layout, 3, 4));
    const across = Math.min(distance(layout, 0, 3), distance(layout, 1, 4), distance(layout, 2, 5));
    expect(within).toBeLessThan(across);
    expect(within).toBeGreaterThan(5);
  });

  it('keeps 2,000 nodes apart: no two end on the same spot', () => {
    const links = Array.from({ length: 4000 }, (_, i) => [i % 2000, (i * 7 + 1) % 2000] as const);
    const layout = createLayout(2000, links);
    for (let i = 0; i < 60; i++) layout.tick();
    const spots = new Set(Array.from(layout.x, (x, i) => `${Math.round(x)}:${Math.round(layout.y[i] as number)}`));
    expect(spots.size).toBeGreaterThan(1900);
  });
});

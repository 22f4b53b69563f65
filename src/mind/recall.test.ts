import { describe, expect, it } from 'vitest';
import { decay, recallFrom } from './recall.js';
import type { Memory } from './schemas.js';

const now = new Date('2026-02-14T00:00:00Z');
const m = (day: string, description: string): Memory => ({
  timestamp: `${day}T00:00:00Z`,
  author: 'self',
  weight: 0.5,
  situation: 's',
  description,
});
const LOG = [
  m('2025-11-01', 'the garden roses bloom red'),
  m('2026-01-02', 'compilers parse tokens into trees'),
  m('2026-02-01', 'garden roses need water'),
  m('2026-02-13', 'lunch was soup'),
  m('2026-02-14', 'it rained'),
];
const o = { recent: 2, topK: 1, halfLifeDays: 30, now };

describe('memory recall', () => {
  it('halves a memory weight every half-life', () => {
    expect(decay(m('2026-01-15', ''), now, 30)).toBeCloseTo(0.5);
    expect(decay(m('2026-02-14', ''), now, 30)).toBe(1);
  });

  it('is the N most recent plus the top K found, an old hit losing to a newer one scored a little lower', () => {
    const found = [
      { memory: LOG[0] as Memory, score: 1 },
      { memory: LOG[2] as Memory, score: 0.8 },
    ];
    expect(recallFrom(LOG, found, o).map((x) => x.description)).toEqual(['garden roses need water', 'lunch was soup', 'it rained']);
    expect(recallFrom(LOG, found, { ...o, topK: 2 }).map((x) => x.description)).toEqual([
      'the garden roses bloom red',
      'garden roses need water',
      'lunch was soup',
      'it rained',
    ]);
  });

  it("recalls an old memory that matches far better, and of two alike the one of more weight (seed 004's weight decay)", () => {
    const old = { ...m('2025-06-15', 'Quetzalina grows heirloom tomatoes'), weight: 0.9 };
    const log = [old, ...LOG];
    const found = [
      { memory: old, score: 1 },
      { memory: LOG[2] as Memory, score: 0.4 },
    ];
    expect(recallFrom(log, found, o)[0]?.description).toBe('Quetzalina grows heirloom tomatoes');
    const light = { ...m('2026-02-01', 'light'), weight: 0.1 };
    const heavy = { ...m('2026-02-01', 'heavy'), weight: 0.9 };
    const alike = [
      { memory: light, score: 0.5 },
      { memory: heavy, score: 0.5 },
    ];
    expect(recallFrom([light, heavy, ...LOG.slice(3)], alike, o)[0]?.description).toBe('heavy');
  });

  it('shows a recent memory once, and ignores hits not in the log (another loop may not see them)', () => {
    const found = [
      { memory: LOG[4] as Memory, score: 1 },
      { memory: m('2026-02-10', 'a kernel note'), score: 1 },
    ];
    expect(recallFrom(LOG, found, o).map((x) => x.description)).toEqual(['lunch was soup', 'it rained']);
  });
});

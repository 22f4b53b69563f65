import { describe, expect, it } from 'vitest';
import { hashProvider } from '../embed/hash.js';
import { decay, recall } from './recall.js';
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
  m('2026-01-01', 'the garden roses bloom red'),
  m('2026-01-02', 'compilers parse tokens into trees'),
  m('2026-02-01', 'garden roses need water'),
  m('2026-02-13', 'lunch was soup'),
  m('2026-02-14', 'it rained'),
];
const o = { recent: 2, topK: 1, halfLifeDays: 30, pool: 100, now };

describe('memory recall', () => {
  it('halves a memory weight every half-life', () => {
    expect(decay(m('2026-01-15', ''), now, 30)).toBeCloseTo(0.5);
    expect(decay(m('2026-02-14', ''), now, 30)).toBe(1);
  });

  it('is the N most recent plus the top K by meaning, recent ones decaying less', async () => {
    const got = await recall(LOG, 'garden roses', hashProvider(256), o);
    expect(got.map((x) => x.description)).toEqual(['garden roses need water', 'lunch was soup', 'it rained']);
  });

  it('is the recent ones only without an encoder', async () => {
    expect((await recall(LOG, 'garden', null, o)).map((x) => x.description)).toEqual(['lunch was soup', 'it rained']);
  });
});

import { describe, expect, it } from 'vitest';
import { activationFactor, modifiersFor, recencyDecay } from './modifiers.js';

describe('score modifiers', () => {
  it('maps ACT-R activation through 1 / (1 + exp(-(a + 2))) as the design tabulates', () => {
    expect(activationFactor(-2)).toBe(0.5);
    expect(activationFactor(0)).toBeCloseTo(0.881, 3);
    expect(activationFactor(2)).toBeCloseTo(0.982, 3);
    // The design's worked example: activation 0.638 for three recent accesses.
    expect(activationFactor(0.638)).toBeCloseTo(1 / (1 + Math.exp(-2.638)), 12);
  });

  it('decays by exp(-days / 90), future dates counting as now', () => {
    expect(recencyDecay(0)).toBe(1);
    expect(recencyDecay(90)).toBeCloseTo(Math.exp(-1), 12);
    expect(recencyDecay(45)).toBeCloseTo(0.6065, 4);
    expect(recencyDecay(-10)).toBe(1);
  });

  it('multiplies only the factors a record carries', () => {
    const now = new Date('2026-04-01T00:00:00Z');
    expect(modifiersFor({}, now, true)).toEqual({ factor: 1 });
    const all = modifiersFor({ confidence: 0.8, activation: 0, ts: '2026-01-01T00:00:00Z' }, now, true);
    // 0.8 x 0.8808 x exp(-90/90)
    expect(all.factor).toBeCloseTo(0.8 * (1 / (1 + Math.exp(-2))) * Math.exp(-1), 10);
    expect(all.recency).toBeCloseTo(Math.exp(-1), 10);
    const noRecency = modifiersFor({ confidence: 0.5, ts: '2020-01-01T00:00:00Z' }, now, false);
    expect(noRecency).toEqual({ confidence: 0.5, factor: 0.5 });
    expect(modifiersFor({ ts: 'not a date' }, now, true)).toEqual({ factor: 1 });
  });
});

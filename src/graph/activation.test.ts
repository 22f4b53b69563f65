import { describe, expect, it } from 'vitest';
import { DAY_MS } from '../core/clock.js';
import {
  EXPIRY_THRESHOLD,
  accessAgeDays,
  activation,
  activationFactor,
  baseActivation,
  isExpired,
  weightActivation,
} from './activation.js';

const now = new Date('2026-03-01T00:00:00Z');
const ago = (days: number): Date => new Date(now.getTime() - days * DAY_MS);

describe('ACT-R base-level activation', () => {
  it("reproduces the design's worked examples", () => {
    // today, 3 and 10 days ago: ln(1 + 0.577 + 0.316) = 0.638
    expect(activation([ago(0), ago(3), ago(10)], now)).toBeCloseTo(0.638, 3);
    // a single access 45 days ago: ln(45^-0.5) = -1.904
    expect(activation([ago(45)], now)).toBeCloseTo(-1.903, 3);
  });

  it('counts an access less than a day old as one day, so a fresh access has activation 0', () => {
    expect(accessAgeDays(now, now)).toBe(1);
    expect(accessAgeDays(ago(0.25), now)).toBe(1);
    expect(accessAgeDays(ago(2), now)).toBe(2);
    expect(activation([now], now)).toBe(0);
    expect(activation([new Date(now.getTime() + DAY_MS)], now)).toBe(0);
  });

  it('is -Infinity without accesses and ignores unreadable timestamps', () => {
    expect(baseActivation([])).toBe(Number.NEGATIVE_INFINITY);
    expect(activation(['not a date'], now)).toBe(Number.NEGATIVE_INFINITY);
    expect(activation(['not a date', ago(1)], now)).toBe(0);
  });

  it('grows with every access (spaced repetition)', () => {
    const one = activation([ago(30)], now);
    const two = activation([ago(30), ago(20)], now);
    const three = activation([ago(30), ago(20), ago(1)], now);
    expect(two).toBeGreaterThan(one);
    expect(three).toBeGreaterThan(two);
  });

  it('crosses the expiry threshold for a single access at e^4 ≈ 54.6 days', () => {
    expect(activation([ago(54)], now)).toBeGreaterThan(EXPIRY_THRESHOLD);
    expect(activation([ago(55)], now)).toBeLessThan(EXPIRY_THRESHOLD);
    expect(isExpired(EXPIRY_THRESHOLD)).toBe(false);
    expect(isExpired(EXPIRY_THRESHOLD - 1e-9)).toBe(true);
  });
});

describe('emotional weight protects weak memories', () => {
  it("keeps the design's multiplication for strong memories", () => {
    expect(weightActivation(0.638, 1.5)).toBeCloseTo(0.957, 3);
    expect(weightActivation(0, 1.5)).toBe(0);
  });

  it('divides a negative activation instead of making it more negative', () => {
    expect(weightActivation(-1.903, 1.5)).toBeCloseTo(-1.269, 3);
    // The design's plain product would expire this 40-day-old correction: -1.844 x 1.5 = -2.77.
    const neutral = activation([ago(40)], now);
    const weighted = activation([ago(40)], now, 1.5);
    expect(neutral * 1.5).toBeLessThan(EXPIRY_THRESHOLD);
    expect(weighted).toBeGreaterThan(neutral);
    expect(isExpired(weighted)).toBe(false);
  });

  it('never ranks a weighted memory below the same neutral one', () => {
    for (const days of [1, 2, 5, 10, 30, 54, 100, 400, 1000]) {
      for (const extra of [[], [ago(3)], [ago(1), ago(2)]]) {
        const times = [ago(days), ...extra];
        expect(activation(times, now, 1.5)).toBeGreaterThanOrEqual(activation(times, now));
      }
    }
  });

  it('makes a weighted single access survive e^6 ≈ 403 days', () => {
    expect(isExpired(activation([ago(402)], now, 1.5))).toBe(false);
    expect(isExpired(activation([ago(404)], now, 1.5))).toBe(true);
  });

  it('treats weights below 1 or not finite as neutral', () => {
    expect(weightActivation(-1, 0.5)).toBe(-1);
    expect(weightActivation(-1, Number.NaN)).toBe(-1);
    expect(weightActivation(Number.NEGATIVE_INFINITY, 1.5)).toBe(Number.NEGATIVE_INFINITY);
  });
});

describe('activation factor (sigmoid)', () => {
  it("maps the design's points", () => {
    expect(activationFactor(-2)).toBe(0.5);
    expect(activationFactor(0)).toBeCloseTo(0.88, 2);
    expect(activationFactor(2)).toBeCloseTo(0.98, 2);
  });

  it('is increasing, within (0, 1), and 0 for a fact never accessed', () => {
    expect(activationFactor(-10)).toBeGreaterThan(0);
    expect(activationFactor(10)).toBeLessThan(1);
    expect(activationFactor(-1)).toBeGreaterThan(activationFactor(-2));
    expect(activationFactor(Number.NEGATIVE_INFINITY)).toBe(0);
  });
});

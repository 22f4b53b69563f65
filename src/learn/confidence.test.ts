import { describe, expect, it } from 'vitest';
import {
  applyContradiction,
  applyFeedback,
  decayPeriods,
  effectiveConfidence,
  foldDecay,
  initialConfidence,
  reinforce,
  type ScoreState,
} from './confidence.js';

const T0 = '2026-01-01T00:00:00.000Z';
const at = (days: number, extraMs = 0): Date => new Date(Date.parse(T0) + days * 86_400_000 + extraMs);
const state = (confidence: number, foldedPeriods = 0): ScoreState => ({ confidence, lastSeen: T0, foldedPeriods });

describe('initial confidence by evidence strength (0.3-0.5)', () => {
  it('starts at 0.30, 0.40, then 0.50 and never higher', () => {
    expect(initialConfidence(1)).toBe(0.3);
    expect(initialConfidence(2)).toBe(0.4);
    expect(initialConfidence(3)).toBe(0.5);
    expect(initialConfidence(40)).toBe(0.5);
    expect(initialConfidence(0)).toBe(0.3);
  });
});

describe('decay: max(0.20, c - 0.05 * floor((now - last_seen) / 7 days))', () => {
  it('does nothing before a full week', () => {
    expect(decayPeriods(T0, at(7, -1))).toBe(0);
    expect(effectiveConfidence(state(0.7), at(6.99))).toBe(0.7);
  });
  it('takes 0.05 at exactly 7 days, 0.10 at 14, 0.15 at 21', () => {
    expect(effectiveConfidence(state(0.7), at(7))).toBe(0.65);
    expect(effectiveConfidence(state(0.7), at(14))).toBe(0.6);
    expect(effectiveConfidence(state(0.7), at(21))).toBe(0.55);
    expect(effectiveConfidence(state(0.7), at(20.99))).toBe(0.6);
  });
  it('never goes below the 0.20 floor', () => {
    expect(effectiveConfidence(state(0.3), at(70))).toBe(0.2);
    expect(effectiveConfidence(state(0.2), at(700))).toBe(0.2);
  });
  it('ignores a last_seen in the future', () => {
    expect(effectiveConfidence(state(0.5), at(-3))).toBe(0.5);
  });
  it('effective confidence of an untouched record is exactly the decay formula', () => {
    for (const days of [0, 6, 7, 13, 14, 21, 35, 100]) {
      const seed = Math.max(0.2, Math.round((0.8 - 0.05 * Math.floor(days / 7)) * 1000) / 1000);
      expect(effectiveConfidence(state(0.8), at(days))).toBe(seed);
    }
  });
  it('folding decay is idempotent: a second pass in the same period changes nothing', () => {
    const once = foldDecay(state(0.8), at(15));
    expect(once).toEqual({ confidence: 0.7, lastSeen: T0, foldedPeriods: 2 });
    expect(foldDecay(once, at(16))).toEqual(once);
    expect(effectiveConfidence(once, at(21))).toBe(0.65);
  });
});

describe('reinforcement', () => {
  it('raises the decayed score by 0.05 and resets last_seen', () => {
    const next = reinforce(state(0.6), at(14));
    expect(next.confidence).toBe(0.55);
    expect(next.lastSeen).toBe(at(14).toISOString());
    expect(next.foldedPeriods).toBe(0);
  });
  it('is capped at 0.95', () => {
    expect(reinforce(state(0.95), at(0)).confidence).toBe(0.95);
    expect(reinforce(state(0.93), at(0)).confidence).toBe(0.95);
  });
  it('reaches 0.75 from 0.50 in exactly five steps', () => {
    let s = state(0.5);
    for (let i = 0; i < 4; i++) s = reinforce(s, at(0));
    expect(s.confidence).toBe(0.7);
    expect(reinforce(s, at(0)).confidence).toBe(0.75);
  });
});

describe('feedback', () => {
  it('wrong drops to 0.20', () => {
    expect(applyFeedback(state(0.8), 'wrong', at(0)).confidence).toBe(0.2);
  });
  it('weak takes 0.15, floored at 0.20', () => {
    expect(applyFeedback(state(0.6), 'weak', at(0)).confidence).toBe(0.45);
    expect(applyFeedback(state(0.3), 'weak', at(0)).confidence).toBe(0.2);
  });
  it('strong adds 0.10 but feedback never lifts past 0.90', () => {
    expect(applyFeedback(state(0.6), 'strong', at(0)).confidence).toBe(0.7);
    expect(applyFeedback(state(0.85), 'strong', at(0)).confidence).toBe(0.9);
    expect(applyFeedback(state(0.9), 'strong', at(0)).confidence).toBe(0.9);
  });
  it('strong never lowers a score that reinforcement carried above 0.90', () => {
    expect(applyFeedback(state(0.95), 'strong', at(0)).confidence).toBe(0.95);
  });
  it('applies to the decayed value and keeps decay from counting the same weeks twice', () => {
    const after = applyFeedback(state(0.8), 'weak', at(14));
    expect(after.confidence).toBe(0.55);
    expect(after.foldedPeriods).toBe(2);
    expect(effectiveConfidence(after, at(20))).toBe(0.55);
    expect(effectiveConfidence(after, at(21))).toBe(0.5);
  });
});

describe('contradiction', () => {
  it('costs 0.10 from three contradicting observations', () => {
    expect(applyContradiction(state(0.6), 3, at(0)).confidence).toBe(0.5);
    expect(applyContradiction(state(0.6), 7, at(0)).confidence).toBe(0.5);
  });
  it('changes nothing below three', () => {
    expect(applyContradiction(state(0.6), 2, at(0)).confidence).toBe(0.6);
    expect(applyContradiction(state(0.6), 0, at(0)).confidence).toBe(0.6);
  });
  it('is floored at 0.20', () => {
    expect(applyContradiction(state(0.25), 3, at(0)).confidence).toBe(0.2);
  });
});

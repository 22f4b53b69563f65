import { describe, expect, it } from 'vitest';
import { checkPromotion, isStaleConviction, localSince } from './promotion.js';

const NOW = new Date('2026-03-01T00:00:00.000Z');
const daysAgo = (d: number): string => new Date(NOW.getTime() - d * 86_400_000).toISOString();
const check = (confidence: number, ageDays: number, idleDays: number, promoted = false, localEvidence = 3) =>
  checkPromotion({ confidence, firstSeen: daysAgo(ageDays), lastSeen: daysAgo(idleDays), promoted, localEvidence }, NOW);

describe('conviction promotion', () => {
  it('accepts exactly 0.75, exactly 14 days old, last seen exactly 7 days ago', () => {
    const result = check(0.75, 14, 7);
    expect(result.eligible).toBe(true);
    expect(result.blockers).toEqual([]);
    expect(result.reasons).toHaveLength(5);
  });
  it('rejects 0.74', () => {
    expect(check(0.74, 30, 1).eligible).toBe(false);
    expect(check(0.74, 30, 1).blockers[0]).toMatch(/confidence 0\.74 < 0\.75/);
  });
  it('rejects an instinct younger than 14 days', () => {
    const result = check(0.9, 13.99, 1);
    expect(result.eligible).toBe(false);
    expect(result.blockers.join()).toMatch(/13 days old \(needs 14\)/);
  });
  it('rejects one not seen within 7 days', () => {
    expect(check(0.9, 30, 7.01).eligible).toBe(false);
  });
  it('rejects one already promoted', () => {
    expect(check(0.9, 30, 1, true).blockers).toContain('already promoted');
  });
  it('rejects one observed here fewer than 3 times, whatever an import stated', () => {
    expect(check(0.95, 400, 0, false, 2).blockers).toEqual(['observed here 2 times (needs 3; imported evidence does not count)']);
    expect(check(0.95, 400, 0, false, 0).eligible).toBe(false);
  });
  it('counts the age from the first observation here, not from an earlier date an import gave', () => {
    expect(localSince(daysAgo(400), daysAgo(2), NOW)).toBe(daysAgo(2));
    expect(localSince(daysAgo(20), daysAgo(20), NOW)).toBe(daysAgo(20));
    expect(localSince(daysAgo(400), null, NOW)).toBe(NOW.toISOString());
  });
  it('flags a promoted instinct that fell below 0.40 as stale, not one at exactly 0.40, nor one promoted by hand at a low score', () => {
    expect(isStaleConviction(true, 0.39, 0.8)).toBe(true);
    expect(isStaleConviction(true, 0.4, 0.8)).toBe(false);
    expect(isStaleConviction(false, 0.2, 0.8)).toBe(false);
    // Promoted by hand at 0.30 and not decayed since: the user vouched for it.
    expect(isStaleConviction(true, 0.3, 0.3)).toBe(false);
  });
});

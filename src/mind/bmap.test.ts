import { describe, expect, it } from 'vitest';
import { type Candidate, motivation, promptStrength, rank, score, valueConflict } from './bmap.js';

const mind = {
  values: [
    { name: 'curiosity', weight: 0.8, status: 'active' as const },
    { name: 'old', weight: 1, status: 'deprecated' as const },
  ],
  goals: [
    { name: 'learn rust', weight: 0.6, status: 'working' as const },
    { name: 'finished', weight: 1, status: 'done' as const },
  ],
  skills: ['chat'],
};
const c = (over: Partial<Candidate>): Candidate => ({ action: 'x', skill: 'chat', values: [], goals: [], indirection: 0, ...over });

describe('B = M × A × P', () => {
  it('motivation is the mean of the strongest active value and open goal served', () => {
    expect(motivation(c({ values: ['curiosity'], goals: ['learn rust'] }), mind)).toBeCloseTo(0.7);
    expect(motivation(c({ values: ['old'], goals: ['finished'] }), mind)).toBe(0);
    expect(motivation(c({ values: ['curiosity'] }), mind)).toBeCloseTo(0.4);
  });

  it('prompt strength is 1 direct and decays with indirection', () => {
    expect(promptStrength(0)).toBe(1);
    expect(promptStrength(2)).toBe(0.25);
    expect(promptStrength(1, 0.9)).toBe(0.9);
  });

  it('multiplies the three and runs the skill when it exists', () => {
    const s = score(c({ values: ['curiosity'], goals: ['learn rust'], indirection: 1 }), mind);
    expect([s.a, s.p]).toEqual([1, 0.5]);
    expect(s.b).toBeCloseTo(0.35);
    expect(s.next).toEqual({ kind: 'run-skill', skill: 'chat' });
  });

  it('A = 0 scores nothing and turns the candidate into creating the skill', () => {
    const s = score(c({ skill: 'weather', values: ['curiosity'] }), mind);
    expect(s.a).toBe(0);
    expect(s.b).toBe(0);
    expect(s.next).toEqual({ kind: 'create-skill', skill: 'weather' });
  });

  it('ranks candidates best first', () => {
    const ranked = rank([c({ action: 'low', values: ['curiosity'], indirection: 3 }), c({ action: 'high', values: ['curiosity'] })], mind);
    expect(ranked.map((s) => s.candidate.action)).toEqual(['high', 'low']);
  });

  it('a value conflict: the two best are close and serve different active values', () => {
    const values = [...mind.values, { name: 'honesty', weight: 0.8, status: 'active' as const }];
    const m2 = { ...mind, values };
    const tell = c({ action: 'tell the truth', values: ['honesty'], goals: ['learn rust'] });
    const soothe = c({ action: 'say it is fine', values: ['curiosity'], goals: ['learn rust'] });
    expect(valueConflict(rank([tell, soothe], m2), values)).toBe(
      '"tell the truth" (honesty) and "say it is fine" (curiosity) scored within 0.05',
    );
    // Far apart, sharing a value, or one serving no value: no conflict.
    expect(valueConflict(rank([tell, c({ ...soothe, indirection: 2 })], m2), values)).toBeUndefined();
    expect(valueConflict(rank([tell, c({ ...soothe, values: ['honesty', 'curiosity'] })], m2), values)).toBeUndefined();
    expect(valueConflict(rank([tell, c({ ...soothe, values: ['old'] })], m2), values)).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { l2normalize } from '../embed/vector-math.js';
import { type Said, groupKey, meaningGroups } from './meaning.js';

const said = (key: string, session: string, vector: number[], project = 'p'): Said => ({
  key: `pref:cli/request=${key}`,
  session,
  project,
  text: key,
  vector: l2normalize(vector),
});

describe('requests grouped by meaning and words', () => {
  it('groups close asks that share a verb or an object, across enough sessions, and nothing else', () => {
    const a = said('review-chang', 's1', [1, 0.1, 0]);
    const b = said('check-chang', 's2', [1, 0.15, 0]);
    const c = said('review-chang', 's3', [1, 0.05, 0]);
    // As close in meaning, but neither its verb nor its object is theirs: not the same ask.
    const d = said('add-integr', 's4', [1, 0.12, 0]);
    // Same words, far in meaning.
    const e = said('check-chang', 's5', [0, 0, 1]);
    const groups = meaningGroups([a, b, c, d, e], 3);
    expect(groups.map((g) => g.map((s) => s.session))).toEqual([['s1', 's2', 's3']]);
    // Too few sessions, one key only, or another project: no group.
    expect(meaningGroups([a, b, c], 4)).toEqual([]);
    expect(meaningGroups([a, c, said('review-chang', 's6', [1, 0.1, 0])], 3)).toEqual([]);
    expect(meaningGroups([a, { ...b, project: 'q' }, c], 3)).toEqual([]);
  });

  it("counts a group under an instinct's key when it has one, else under the key seen in most sessions", () => {
    const group = [said('check-chang', 's1', [1]), said('review-chang', 's2', [1]), said('review-chang', 's3', [1])];
    expect(groupKey(group, () => false)).toBe('pref:cli/request=review-chang');
    expect(groupKey(group, (k) => k.endsWith('check-chang'))).toBe('pref:cli/request=check-chang');
  });
});

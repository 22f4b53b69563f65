import { describe, expect, it } from 'vitest';
import { anchorTime, updatedFirst } from './beam-data.js';
import { parseMessageTime, realtalkEvidence } from './realtalk-data.js';

describe('reading REALTALK and BEAM', () => {
  it('dates a REALTALK message and cleans its evidence ids as the README says', () => {
    expect(parseMessageTime('29.12.2023, 11:23:21')).toBe('2023-12-29T11:23:21.000Z');
    expect(parseMessageTime('yesterday')).toBeUndefined();
    const known = new Set(['D1:3', 'D1:4', 'D1:5', 'D2:7']);
    expect(realtalkEvidence(['D1:3-5', 'D2:07.', 'D9:1', 'D1:3; D2:7'], known)).toEqual(['D1:3', 'D1:4', 'D1:5', 'D2:7']);
  });

  it('dates a BEAM anchor and counts an update above its original, an absent original counting below', () => {
    expect(anchorTime('March-15-2024')).toBe('2024-03-15T12:00:00.000Z');
    expect(anchorTime(undefined)).toBeUndefined();
    expect(updatedFirst(['a', 'new', 'old'], ['new'], ['old'])).toBe(true);
    expect(updatedFirst(['old', 'new'], ['new'], ['old'])).toBe(false);
    expect(updatedFirst(['new'], ['new'], ['old'])).toBe(true);
    expect(updatedFirst(['old'], ['new'], ['old'])).toBe(false);
  });
});

describe('asking without the names', () => {
  it('replaces every speaker name and first name, possessives included', async () => {
    const { withoutNames } = await import('./locomo.js');
    expect(withoutNames("What did Caroline's mother give Melanie Smith?", ['Caroline', 'Melanie Smith'])).toBe(
      'What did their mother give they?',
    );
  });
});

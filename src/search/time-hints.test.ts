import { describe, expect, it } from 'vitest';
import { matchesHint, timeHints } from './time-hints.js';

describe('time hints', () => {
  it('reads days, months and years a query names', () => {
    expect(timeHints('What did she show on October 13, 2023?')).toEqual([{ start: Date.UTC(2023, 9, 13), end: Date.UTC(2023, 9, 14) }]);
    expect(timeHints('the topic on 11 December, 2023')).toEqual([{ start: Date.UTC(2023, 11, 11), end: Date.UTC(2023, 11, 12) }]);
    expect(timeHints('a party in June 2022')).toEqual([{ start: Date.UTC(2022, 5, 1), end: Date.UTC(2022, 6, 1) }]);
    expect(timeHints('camping in July')).toEqual([{ month: 6 }]);
    expect(timeHints('beach trips in 2023')).toEqual([{ start: Date.UTC(2023, 0, 1), end: Date.UTC(2024, 0, 1) }]);
    expect(timeHints('you may go')).toEqual([]);
    expect(timeHints('no dates here')).toEqual([]);
  });

  it('matches memories dated in the period or within 30 days after it', () => {
    const june = timeHints('in June 2022');
    expect(matchesHint('2022-06-15T10:00:00.000Z', june)).toBe(true);
    expect(matchesHint('2022-07-20T10:00:00.000Z', june)).toBe(true);
    expect(matchesHint('2022-08-15T10:00:00.000Z', june)).toBe(false);
    expect(matchesHint('2022-05-31T10:00:00.000Z', june)).toBe(false);
    expect(matchesHint('2019-07-10T00:00:00.000Z', timeHints('in July'))).toBe(true);
    expect(matchesHint(null, june)).toBe(false);
    expect(matchesHint('2022-06-15T10:00:00.000Z', [])).toBe(false);
  });
});

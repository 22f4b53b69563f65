import { describe, expect, it } from 'vitest';
import { asksCurrentState, newestWithinSubject, scoresInRankOrder } from './current.js';

describe('the newest truth first', () => {
  it('tells a question about now from one about the past', () => {
    expect(asksCurrentState('What is the average response time of the dashboard API?')).toBe(true);
    expect(asksCurrentState('How many sources are in my Zotero library?')).toBe(true);
    expect(asksCurrentState('When is my Zoom call with the creative director scheduled?')).toBe(true);
    expect(asksCurrentState('What was the response time before the caching change?')).toBe(false);
    expect(asksCurrentState('When did Caroline go to the support group?')).toBe(false);
    expect(asksCurrentState('The deploy is broken')).toBe(false);
  });

  it('moves a newer memory about the same subject above an older one, and leaves other subjects in place', () => {
    const hit = (docId: number, ts: string, text: string, collection = 'memories') => ({ docId, ts, text, collection });
    const hits = [
      hit(1, '2024-03-01T00:00:00Z', 'user: the dashboard API response time averages 400ms'),
      hit(2, '2024-03-02T00:00:00Z', 'user: the login page needs a new logo'),
      hit(3, '2024-04-01T00:00:00Z', 'user: after caching, the dashboard API response time is now 250ms'),
      // Same instant: the one stored later came later.
      hit(5, '2024-04-01T00:00:00Z', 'user: dashboard API response time dropped again, 180ms'),
    ];
    const terms = ['average', 'response', 'time', 'dashboard', 'api'];
    expect(newestWithinSubject(hits, terms).map((h) => h.docId)).toEqual([5, 3, 1, 2]);
    // A hit without a date keeps its place.
    expect(newestWithinSubject([hits[0]!, { ...hits[2]!, ts: null }], terms).map((h) => h.docId)).toEqual([1, 3]);
    // A newer memory of another collection, or a session's later turn, is not an update of it.
    expect(newestWithinSubject([hits[0]!, { ...hits[2]!, collection: 'notes' }], terms).map((h) => h.docId)).toEqual([1, 3]);
    const turns = [hits[0]!, hits[2]!].map((h) => ({ ...h, collection: 'turns' }));
    expect(newestWithinSubject(turns, terms).map((h) => h.docId)).toEqual([1, 3]);
  });

  it('shows scores in rank order: a hit moved below shows no more than the one above it', () => {
    const scores = (xs: number[]) => scoresInRankOrder(xs.map((score) => ({ score }))).map((h) => h.score);
    expect(scores([0.9, 0.5, 0.7, 0.2])).toEqual([0.9, 0.5, 0.5, 0.2]);
    expect(scores([0.406, 0.5])).toEqual([0.406, 0.406]);
  });
});

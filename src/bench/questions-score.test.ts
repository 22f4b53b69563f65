import { describe, expect, it } from 'vitest';
import { firstHit, grepRank, hitRates, sessionOf, sessionOfRef } from './questions-score.js';

describe('scoring questions about sessions', () => {
  it('maps a turn to its session and ranks sessions once each', () => {
    expect(sessionOf({ collection: 'turns', id: 's1#4', thread: 's1' })).toBe('s1');
    expect(sessionOf({ collection: 'sessions', id: 's2', thread: null })).toBe('s2');
    expect(sessionOf({ collection: 'facts', id: '9', thread: null })).toBeUndefined();
    expect([sessionOfRef('turns/s1#4'), sessionOfRef('sessions/s2'), sessionOfRef('fact 12'), sessionOfRef('entities/3')]).toEqual([
      's1',
      's2',
      undefined,
      undefined,
    ]);
    expect(firstHit(['s1', 's1', undefined, 's3', 's2'], ['s2'])).toBe(3);
    expect(firstHit(['s1'], ['s2'])).toBe(0);
  });

  it('ranks transcripts by distinct question words, then by how often they occur', () => {
    const texts = new Map([
      ['a', 'attribution attribution attribution'],
      ['b', 'attribution script haiku'],
      ['c', 'nothing here'],
    ]);
    expect(grepRank('why was attribution missing in the haiku script?', texts)).toEqual(['b', 'a']);
    expect(hitRates([1, 3, 0, 12])).toEqual({ questions: 4, at1: 0.25, at5: 0.5, at10: 0.5 });
  });
});

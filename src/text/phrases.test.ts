import { describe, expect, it } from 'vitest';
import { candidatePhrases } from './phrases.js';

describe('candidate phrases', () => {
  it('lists runs of up to three words that neither start nor end with a stop word', () => {
    expect(candidatePhrases("What did Mary Ann's dog eat?")).toEqual(['Mary', 'Mary Ann', 'Ann', 'Ann s dog', 'dog', 'dog eat', 'eat']);
    expect(candidatePhrases('the of and')).toEqual([]);
    expect(candidatePhrases('a b c d e f g h', 3, 4)).toHaveLength(0);
    expect(candidatePhrases('alpha beta gamma delta', 3, 4)).toHaveLength(4);
  });
});

import { describe, expect, it } from 'vitest';
import { codeTokens, wordSet, words, wordsAsWritten } from './words.js';

describe('words', () => {
  it('are lower-case runs of letters, digits and underscores, NFKC-normalised', () => {
    expect([...words('Fix the user_id bug in Café 42!')]).toEqual(['fix', 'the', 'user_id', 'bug', 'in', 'café', '42']);
    expect([...words('ＡＰＩ ﬁle')]).toEqual(['api', 'file']);
    expect([...words("don't")]).toEqual(['don', 't']);
  });

  it('keep their case when asked as written', () => {
    expect(wordsAsWritten("Mary Ann's dog")).toEqual(['Mary', 'Ann', 's', 'dog']);
  });

  it('make sets of words of 2+ characters, without punctuation', () => {
    expect([...wordSet('A b cd, EF! gh-ij')]).toEqual(['cd', 'ef', 'gh', 'ij']);
    expect([...wordSet('one two one', 4)]).toEqual([]);
  });
});

describe('code tokens', () => {
  it('keep paths, dotted names and colons, trimmed of punctuation at either end', () => {
    expect(codeTokens('see src/app.ts, node:fs and pkg.Func.')).toEqual(['see', 'src/app.ts', 'node:fs', 'and', 'pkg.Func']);
    expect(codeTokens('`mise run test:ci` --fix -- ...')).toEqual(['mise', 'run', 'test:ci', 'fix']);
    expect(codeTokens("don't")).toEqual(['don', 't']);
  });
});

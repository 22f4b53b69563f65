import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS, contentTerms, hasCjk, looksLikeFtsSyntax, sanitizeQuery, shortCjkRuns, trigramTokens } from './query-text.js';

describe('query text', () => {
  it('keeps content words, lower-cased, without stop words or repeats', () => {
    expect(contentTerms('What did Caroline research about the Adoption agencies? Caroline!')).toEqual([
      'caroline',
      'research',
      'adoption',
      'agencies',
    ]);
    expect(contentTerms('the of and')).toEqual([]);
    expect(contentTerms('東京 に 行った')).toEqual(['東京', 'に', '行った']);
  });

  it('strips NUL and control characters and caps the length', () => {
    expect(sanitizeQuery('a\u0000b\u0007c')).toBe('a b c');
    expect(sanitizeQuery('x'.repeat(1_000_000))).toHaveLength(MAX_QUERY_CHARS);
  });

  it('sends CJK runs and code identifiers to the trigram index', () => {
    expect(trigramTokens('where is getUserById or user_id in src/app.ts?')).toEqual(['getUserById', 'user_id', 'src/app.ts']);
    expect(trigramTokens('東京タワーに行った')).toEqual(['東京タワーに行った']);
    expect(trigramTokens('plain english words')).toEqual([]);
    expect(shortCjkRuns('東京 and 大阪タワー')).toEqual(['東京']);
    expect(hasCjk('abc')).toBe(false);
  });

  it('recognises deliberate FTS5 syntax', () => {
    expect(looksLikeFtsSyntax('"exact phrase"')).toBe(true);
    expect(looksLikeFtsSyntax('deploy AND rollback')).toBe(true);
    expect(looksLikeFtsSyntax('migrat*')).toBe(true);
    expect(looksLikeFtsSyntax('how do i deploy')).toBe(false);
  });
});

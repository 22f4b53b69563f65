import { describe, expect, it } from 'vitest';
import { isIdentifier, trigramTokens } from './trigram.js';

describe('trigram tokens', () => {
  it('sends CJK runs and code identifiers to the trigram index', () => {
    expect(trigramTokens('where is getUserById or user_id in src/app.ts?')).toEqual(['getUserById', 'user_id', 'src/app.ts']);
    expect(trigramTokens('東京タワーに行った')).toEqual(['東京タワーに行った']);
    expect(trigramTokens('plain english words')).toEqual([]);
  });

  it('knows an identifier by its shape', () => {
    for (const id of ['user_id', 'getUser', 'app.ts', 'src/x', 'sha256', 'v2', 'e.g']) expect(isIdentifier(id), id).toBe(true);
    for (const word of ['plain', 'Paris', '2023', 'end.']) expect(isIdentifier(word), word).toBe(false);
  });
});

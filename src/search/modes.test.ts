import { describe, expect, it } from 'vitest';
import { UsageError } from '../core/errors.js';
import { SEARCH_MODES, searchMode } from './modes.js';

describe('search modes', () => {
  it('accepts the three modes, hybrid by default, and names them when refusing another', () => {
    for (const mode of SEARCH_MODES) expect(searchMode(mode)).toBe(mode);
    expect(searchMode(undefined)).toBe('hybrid');
    expect(() => searchMode('fuzzy')).toThrow(UsageError);
    expect(() => searchMode('fuzzy')).toThrow('--mode must be one of hybrid, bm25, vector, got "fuzzy".');
    expect(() => searchMode(null)).toThrow(/got null/);
  });
});

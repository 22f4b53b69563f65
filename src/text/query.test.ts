import { describe, expect, it } from 'vitest';
import { MAX_QUERY_CHARS, looksLikeFtsSyntax, sanitizeQuery } from './query.js';

describe('query text', () => {
  it('strips NUL and control characters and caps the length', () => {
    expect(sanitizeQuery('a\u0000b\u0007c')).toBe('a b c');
    expect(sanitizeQuery('x'.repeat(1_000_000))).toHaveLength(MAX_QUERY_CHARS);
  });

  it('recognises deliberate FTS5 syntax', () => {
    expect(looksLikeFtsSyntax('"exact phrase"')).toBe(true);
    expect(looksLikeFtsSyntax('deploy AND rollback')).toBe(true);
    expect(looksLikeFtsSyntax('migrat*')).toBe(true);
    expect(looksLikeFtsSyntax('how do i deploy')).toBe(false);
  });
});

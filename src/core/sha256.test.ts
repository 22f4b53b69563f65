import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256 } from './ids.js';
import { sha256Hex } from './sha256.js';

const native = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('sha256Hex', () => {
  it('matches the known vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches node:crypto on every length around the block boundaries and on non-ASCII text', () => {
    for (let n = 0; n < 300; n++) {
      const text = 'x'.repeat(n);
      expect(sha256Hex(text)).toBe(native(text));
    }
    for (const text of ['héllo wörld', '日本語のテキスト', '😀 emoji \u0000 nul', '/Users/alex/workspace/cli'])
      expect(sha256Hex(text)).toBe(native(text));
  });

  it('backs ids.sha256 for short and long text alike', () => {
    expect(sha256('github.com/o/r')).toBe(native('github.com/o/r'));
    const long = 'y'.repeat(10_000);
    expect(sha256(long)).toBe(native(long));
  });
});

import { describe, expect, it } from 'vitest';
import { cjkRuns, hasCjk, shortCjkRuns } from './cjk.js';

describe('CJK text', () => {
  it('finds runs of CJK characters, keeping shared marks in a run', () => {
    expect(hasCjk('abc')).toBe(false);
    expect(hasCjk('東京 tower')).toBe(true);
    expect(cjkRuns('東京 and スーパー')).toEqual(['東京', 'スーパー']);
    expect(shortCjkRuns('東京 and 大阪タワー')).toEqual(['東京']);
  });
});

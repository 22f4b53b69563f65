import { describe, expect, it } from 'vitest';
import { malformedNote } from './capture.js';

describe('malformedNote', () => {
  const at = (n: number) => Array.from({ length: n }, (_, i) => ({ file: '/t/a.jsonl', line: i + 10 }));

  it('names each malformed line when there are few', () => {
    expect(malformedNote(2, at(2))).toBe('  2 malformed lines skipped: /t/a.jsonl:10, /t/a.jsonl:11');
  });

  it('names the first three, then counts the rest', () => {
    expect(malformedNote(40, at(20))).toBe('  40 malformed lines skipped: /t/a.jsonl:10, /t/a.jsonl:11, /t/a.jsonl:12 and 37 more');
  });
});

import { describe, expect, it } from 'vitest';
import { diffLines, formatDiff } from './diff.js';

describe('diff', () => {
  it('finds the inserted, removed and kept lines', () => {
    expect(diffLines('a\nb\nc\n', 'a\nx\nc\n')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'c' },
    ]);
    expect(diffLines('', 'a')).toEqual([{ op: '+', text: 'a' }]);
    expect(diffLines('a', '')).toEqual([{ op: '-', text: 'a' }]);
  });

  it('formats changes with context and says nothing for equal texts', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 3', 'LINE 3').replace('line 15', 'LINE 15');
    const text = formatDiff(before, after, 'f.json', 1);
    expect(text.split('\n')).toEqual([
      '--- f.json',
      '+++ f.json (after)',
      ' line 2',
      '-line 3',
      '+LINE 3',
      ' line 4',
      '@@',
      ' line 14',
      '-line 15',
      '+LINE 15',
      ' line 16',
    ]);
    expect(formatDiff(before, before, 'f')).toBe('');
  });
});

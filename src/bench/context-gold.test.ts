import { describe, expect, it } from 'vitest';
import { injectedLines, judge, total } from './context-gold.js';

const rules = new Map([
  ['tasks', /mise run (test|lint)/i],
  ['replies', /\/replies/i],
]);

describe('scoring what the hooks inject', () => {
  it('counts a line relevant only when it names a pattern expected there', () => {
    const text = '## Learned\n- Use `mise run test` (seen 3 times)\n- Call `gh api .../replies` (seen 2 times)\n- Be nice\n<fence>';
    expect(injectedLines(text)).toHaveLength(3);
    expect(judge(text, ['tasks'], rules)).toEqual({ lines: 3, relevant: 1, named: 2, expected: 1, found: 1, noisy: true });
    expect(judge(text, ['tasks', 'replies'], rules)).toEqual({ lines: 3, relevant: 2, named: 2, expected: 2, found: 2, noisy: true });
  });

  it('rewards silence where nothing was expected, and misses what was expected but not said', () => {
    const quiet = judge('', [], rules);
    const missed = judge('', ['tasks'], rules);
    const noise = judge('- something else', [], rules);
    expect(total([quiet])).toEqual({ points: 1, lines: 0, precision: 1, recall: 1, noisyShare: 0 });
    expect(total([quiet, missed, noise])).toEqual({ points: 3, lines: 1, precision: 0, recall: 0, noisyShare: 1 / 3 });
  });
});

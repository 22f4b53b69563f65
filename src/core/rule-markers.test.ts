import { describe, expect, it } from 'vitest';
import { learnedKeys, outsideLearnedBlock } from './rule-markers.js';

describe('the learned block of a rule file', () => {
  const file = [
    '# Project notes',
    'Use `pref:not-a-rule` as an example.',
    '<!-- instinct:start -->',
    '- When you need to lint in cli: Use `mise run lint`. Likewise `mise run fmt`. (seen 25 to 92 times each) <!-- `pref:cli/lint=mise-run-lint` (92) `pref:cli/format=mise-run-fmt` (74) -->',
    '- When writing code that `mise run lint` checks: errcheck. <!-- `fix:golangci-errcheck` (14) -->',
    '<!-- written by homunculus (53756dc3d33e); edits here are replaced -->',
    '<!-- instinct:end -->',
  ].join('\n');

  it('names the instincts its bullets carry, and nothing written outside it or in the text of a rule', () => {
    expect(learnedKeys(file)).toEqual(['pref:cli/lint=mise-run-lint', 'pref:cli/format=mise-run-fmt', 'fix:golangci-errcheck']);
    expect(learnedKeys('no block here <!-- `pref:x` -->')).toEqual([]);
    expect(outsideLearnedBlock(file)).toBe('# Project notes\nUse `pref:not-a-rule` as an example.\n');
  });
});

import { describe, expect, it } from 'vitest';
import { type PlainInstinct, mergeSimilar, plainLine } from './plain.js';

const task = (name: string, command: string, when: string, evidence: number): PlainInstinct => ({
  name,
  category: 'preference',
  trigger: `when you need to ${when} in cli`,
  action: `Use the project's task \`${command}\` rather than calling the toolchain directly.`,
  title: `cli: ${when}`,
  evidence,
  imported: false,
});

describe('plain lines', () => {
  it('merges the same advice for other code into one line led by the most seen', () => {
    const ranked = [
      task('pref:cli/test=mise-run-test:integration', 'mise run test:integration', 'run the tests (integration)', 15),
      task('pref:cli/test=mise-run-test', 'mise run test', 'run the tests', 54),
    ];
    const [group, ...rest] = mergeSimilar(ranked);
    expect(rest).toEqual([]);
    expect(group?.map((i) => i.evidence)).toEqual([54, 15]);
    expect(plainLine(group ?? [])).toMatch(
      /^- When you need to run the tests in cli: Use the project's task `mise run test` .* Likewise `mise run test:integration` \(when you need to run the tests \(integration\) in cli\)\. \(seen 54, 15 times\)$/,
    );
  });

  it('says when a rule was last seen once that is over a month ago, by its most recent member', () => {
    const old = { ...task('pref:cli/lint=mise-run-lint', 'mise run lint', 'lint', 64), lastSeen: '2026-02-10T09:00:00.000Z' };
    expect(plainLine([old])).toMatch(/\(seen 64 times, last seen Feb 2026\)$/);
    const older = { ...task('pref:cli/fmt=mise-run-fmt', 'mise run fmt', 'format', 9), lastSeen: '2026-01-05T09:00:00.000Z' };
    expect(plainLine([old, older])).toMatch(/last seen Feb 2026\)$/);
    // One member seen lately: nothing old to say.
    expect(plainLine([old, task('pref:cli/fmt=mise-run-fmt', 'mise run fmt', 'format', 9)])).not.toContain('last seen');
  });

  it('says the range of counts for a group of more than three', () => {
    const lint = (n: number, evidence: number): PlainInstinct => ({
      name: `fix:lint-${n}`,
      category: 'fix_pattern',
      trigger: 'when writing code that `mise run lint` checks in cli',
      action: `Satisfy rule ${n}.`,
      title: `rule ${n}`,
      evidence,
    });
    expect(plainLine([lint(1, 14), lint(2, 3), lint(3, 6), lint(4, 3)])).toMatch(/\(seen 3 to 14 times each\)$/);
    expect(plainLine([lint(1, 14), lint(2, 3)])).toMatch(/\(seen 14, 3 times\)$/);
  });
});

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
});

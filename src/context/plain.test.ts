import { describe, expect, it } from 'vitest';
import { type PlainInstinct, mergeSimilar, plainLine, saysSomething } from './plain.js';

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
      /^- When you need to run the tests in cli: Use the project's task `mise run test` .* Likewise `mise run test:integration`\. \(seen 54 and 15 times\)$/,
    );
    // What sets another rule's trigger apart, when its code does not say it.
    const fmt = plainLine([
      task('pref:cli/lint=mise-run-lint', 'mise run lint', 'lint', 64),
      task('pref:cli/fmt=mise-run-fmt', 'mise run fmt', 'format code', 9),
    ]);
    expect(fmt).toContain('Likewise `mise run fmt` (format code).');
    // The line says when each of its commands applies, not only when the first does.
    expect(fmt).toMatch(/^- When you need to lint or format code in cli: Use the project's task `mise run lint`/);
    const five = mergeSimilar([
      task('pref:cli/lint=mise-run-lint', 'mise run lint', 'lint', 92),
      task('pref:cli/fmt=mise-run-fmt', 'mise run fmt', 'format code', 74),
      task('pref:cli/test=mise-run-test', 'mise run test', 'run the tests', 74),
      task('pref:cli/test=mise-run-test:ci', 'mise run test:ci', 'run the tests (ci)', 29),
      task('pref:cli/test=mise-run-test:integration', 'mise run test:integration', 'run the tests (integration)', 25),
    ]);
    expect(five).toHaveLength(1);
    expect(plainLine(five[0] ?? [])).toMatch(
      /^- When you need to lint, format code or run the tests in cli: Use the project's task `mise run lint`/,
    );
  });

  it('puts a recipe for running the same thing by hand on its task line', () => {
    const recipe = (target: string, command: string): PlainInstinct => ({
      name: `pref:cli/recipe=${command.replace(/\W+/g, '-')}`,
      category: 'preference',
      trigger: `when running \`go test\` on \`${target}\` in cli`,
      action: `Run it as \`${command}\`: this is how this project runs it (add \`-run TestName\` or \`-v\` as needed).`,
      title: `cli: ${command}`,
      evidence: 9,
    });
    const integration = recipe('./cmd/app/integration_test', 'go test -tags=integration ./cmd/app/integration_test');
    const groups = mergeSimilar([
      integration,
      task('pref:cli/test=mise-run-test:integration', 'mise run test:integration', 'run the tests (integration)', 15),
    ]);
    expect(groups.map((g) => g.map((i) => i.name))).toEqual([['pref:cli/test=mise-run-test:integration', integration.name]]);
    expect(plainLine(groups[0] ?? [])).toMatch(
      /`mise run test:integration` rather than calling the toolchain directly\. To call the toolchain directly: `go test -tags=integration \.\/cmd\/app\/integration_test` \(add `-run TestName` or `-v` as needed\)\. \(seen 15 and 9 times\)$/,
    );
    // Beside the task for all the tests, it goes with the integration one.
    const all = mergeSimilar([
      task('pref:cli/test=mise-run-test', 'mise run test', 'run the tests', 54),
      integration,
      task('pref:cli/test=mise-run-test:integration', 'mise run test:integration', 'run the tests (integration)', 15),
    ]);
    expect(all).toHaveLength(1);
    expect(plainLine(all[0] ?? [])).toContain(
      'Likewise `mise run test:integration` (directly: `go test -tags=integration ./cmd/app/integration_test` (add `-run TestName` or `-v` as needed)).',
    );
    // A session's example in a recipe's trigger says nothing of what it runs: building is not testing.
    const build: PlainInstinct = {
      ...recipe('./cmd/app', 'go build -o /tmp/app ./cmd/app'),
      trigger: 'when running `go build` on `./cmd/app` in cli (e.g. "Build and test the help message")',
    };
    expect(mergeSimilar([build, task('pref:cli/test=mise-run-test', 'mise run test', 'run the tests', 54)])).toHaveLength(2);
    // With no task of its subject (lint is not what `go test` on the integration tests runs), a recipe is a line of its own.
    expect(mergeSimilar([integration, task('pref:cli/lint=mise-run-lint', 'mise run lint', 'lint', 64)])).toHaveLength(2);
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
    // One trigger's rules read as one line led by the most seen, whatever order they came in.
    const [group] = mergeSimilar([lint(2, 3), lint(1, 14), lint(3, 6)]);
    expect(plainLine(group ?? [])).toMatch(/^- When writing code .*: Satisfy rule 1\. Also: 3, 2\./);
    expect(plainLine([lint(1, 14), lint(2, 3)])).toMatch(/\(seen 14 and 3 times\)$/);
    // Parts that need their shared lead to say anything keep it, past the project's label.
    const ask = (what: string, evidence: number): PlainInstinct => ({
      name: `pref:cli/request=${what}`,
      category: 'preference',
      trigger: 'when a change in cli is ready for the user',
      action: `Offer to ${what} before being asked.`,
      title: `cli: users ask to ${what}`,
      evidence,
    });
    expect(plainLine([ask('review the changes', 6), ask('create the branch', 3)])).toMatch(
      /Offer to review the changes before being asked\. Also: users ask to create the branch\. \(seen 6 and 3 times\)$/,
    );
    // The user's mark on one rule of a merged line is not lent to the others.
    expect(plainLine([{ ...lint(1, 14), confirmed: true }, lint(2, 3)])).toMatch(/\(seen 14 and 3 times, 1 of 2 confirmed by the user\)$/);
    expect(
      plainLine([
        { ...lint(1, 14), confirmed: true },
        { ...lint(2, 3), confirmed: true },
      ]),
    ).toMatch(/\(seen 14 and 3 times, confirmed by the user\)$/);
  });
});

describe('saysSomething', () => {
  it('is false for an instinct that holds nothing but its key, true once a trigger, action or explanation says more', () => {
    expect(saysSomething({ key: 'pref:conc=test', trigger: 'conc=test', action: 'conc=test' })).toBe(false);
    expect(saysSomething({ key: 'pref:conc=test', trigger: 'conc=test', action: '' })).toBe(false);
    expect(saysSomething({ key: 'pref:pkg=pnpm', trigger: 'pkg=pnpm', action: 'use pnpm, never npm' })).toBe(true);
    expect(saysSomething({ key: 'pref:pkg=pnpm', trigger: 'when installing packages', action: 'pkg=pnpm' })).toBe(true);
  });
});

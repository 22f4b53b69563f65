import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { qualityGate } from '../gate.js';
import { commitMessages, mineCommitStyle } from './commits.js';

describe('commit messages', () => {
  it('reads the first line of -m, --message= and a heredoc message, and nothing from other commands', () => {
    expect(commitMessages('git add -A && git commit -m "fix(inventory): handle empty stock"')).toEqual([
      'fix(inventory): handle empty stock',
    ]);
    expect(commitMessages("git commit -am 'feat: add totals' -m 'Body paragraph.'")).toEqual(['feat: add totals']);
    expect(commitMessages('git commit --message="docs: say how"')).toEqual(['docs: say how']);
    const heredoc = 'git commit -m "$(cat <<\'EOF\'\nrefactor: split the parser\n\nLonger body.\nEOF\n)"';
    expect(commitMessages(heredoc)).toEqual(['refactor: split the parser']);
    expect(commitMessages('git log -m "fix: x"')).toEqual([]);
    expect(commitMessages('git commit')).toEqual([]);
    // A heredoc before the commit is a file's text, not the message.
    expect(commitMessages("cat <<'EOF' > notes.md\nAdd notes\nEOF\ngit add notes.md && git commit -m 'docs: add notes'")).toEqual([
      'docs: add notes',
    ]);
  });
});

describe('mineCommitStyle', () => {
  const session = (messages: string[], exit = 0) =>
    steps(
      messages.map((m) => ({ bash: `git commit -m "${m}"`, exit })),
      { projectName: 'pyinv' },
    );

  it("learns the project's Conventional Commits, with an example of its own, through the gate", () => {
    const { style, candidates } = mineCommitStyle(session(['fix(inventory): handle empty stock', 'test: cover the empty case']));
    expect(style).toBe('conventional');
    const [found] = candidates;
    expect(found).toMatchObject({
      key: 'pref:pyinv/commit-style=conventional',
      trigger: 'when writing a commit message in pyinv',
      action:
        'Write it as a Conventional Commit, `type(scope): summary` (e.g. "test: cover the empty case"): this project\'s commits are written that way.',
    });
    expect(found?.facts).toEqual({ types: ['fix', 'test'] });
    expect(qualityGate(found!).pass).toBe(true);
  });

  it('learns nothing from commits in another style, a mixed session, or commits that failed', () => {
    expect(mineCommitStyle(session(['Add wingman review', 'Fix the hooks']))).toEqual({ style: 'other', candidates: [] });
    expect(mineCommitStyle(session(['fix: one', 'Add two', 'Change three']))).toEqual({ style: 'other', candidates: [] });
    expect(mineCommitStyle(session(['fix: one'], 1))).toEqual({ candidates: [] });
  });
});

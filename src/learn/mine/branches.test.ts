import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { mineBranchUpdates, remoteBase } from './branches.js';

describe('updating a branch from the remote', () => {
  it('finds the remote ref of a merge, a rebase or a pull, and nothing in a local merge', () => {
    expect(remoteBase('git merge origin/main --no-edit')).toBe('origin/main');
    expect(remoteBase('git rebase origin/alex/ent-221-types')).toBe('origin/alex/ent-221-types');
    expect(remoteBase('git pull --rebase origin main')).toBe('origin/main');
    expect(remoteBase('git merge main')).toBeUndefined();
    expect(remoteBase('git log origin/main..HEAD')).toBeUndefined();
  });

  it('counts a merge that stopped on conflicts and says why when the session works in a worktree', () => {
    const found = mineBranchUpdates(
      steps([{ bash: 'git fetch origin main && git merge origin/main', error: 'exit 1: CONFLICT (content): Merge conflict in a.go' }], {
        cwd: '/w/shop/.worktrees/3',
      }),
    );
    expect(found.map((c) => c.key)).toEqual(['pref:demo/update-branch=remote-base']);
    expect(found[0]?.action).toMatch(/merge \(or rebase on\) `origin\/main`.*git worktrees/);
    expect(mineBranchUpdates(steps([{ bash: 'git merge main' }]))).toEqual([]);
  });
});

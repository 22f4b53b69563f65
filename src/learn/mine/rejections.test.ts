import { describe, expect, it } from 'vitest';
import type { Obs } from '../observation.js';
import { mineRejections, reasonIsAbout, refusedKind } from './rejections.js';

const refused = (input: string, error: string, at = 1): Obs => ({
  id: at,
  sessionId: 's1',
  at,
  ts: new Date(at).toISOString(),
  event: 'tool',
  project: 'p1',
  projectName: 'shop',
  cwd: '/w/shop',
  tool: 'Bash',
  intent: '',
  input,
  files: [],
  outcome: 'blocked',
  error,
  processed: false,
});

describe('refused calls', () => {
  it('groups commands by what they do: git writes together, the variants of one task together', () => {
    expect(refusedKind('git commit')?.slug).toBe('git-commit-push');
    expect(refusedKind('git push')?.slug).toBe('git-commit-push');
    expect(refusedKind('mise run test:ci')?.slug).toBe(refusedKind('mise run test:integration')?.slug);
    expect(refusedKind('git stash')?.slug).toBe('git-stash');
    expect(refusedKind('git read-tree')).toBeUndefined();
    expect(refusedKind('cat')).toBeUndefined();
  });

  it('quotes only words about the refused command', () => {
    expect(reasonIsAbout('too slow.', 'mise run test:ci')).toBe(true);
    expect(reasonIsAbout("don't run CI or integration tests, too slow.", 'mise run test:integration')).toBe(true);
    expect(reasonIsAbout('I think we should separate the hook types for clarity.', 'git commit')).toBe(false);
  });

  it('turns each refused kind into one rule a reader can follow, and ignores calls that were not refused', () => {
    const found = mineRejections([
      refused('git add a.go && git commit -m x', 'rejected by the user: no, I did not say commit anything'),
      refused('mise run test:ci 2>&1', 'rejected by the user: too slow.', 2),
      { ...refused('mise run test:ci', ''), outcome: 'error' },
    ]);
    expect(found.map((c) => c.key)).toEqual(['pref:shop/unasked=git-commit-push', 'pref:shop/unasked=mise-run-test-variants']);
    expect(found[0]?.action).toMatch(/^Do not commit or push unless the user asks for it/);
    expect(found[1]?.evidence[0]).toContain('"too slow."');
  });
});

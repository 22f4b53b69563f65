import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { mineQuirks } from './quirks.js';

describe('environment quirks', () => {
  it('turns zsh refusing a glob into its remedy, even when the rest of the command passed', () => {
    const found = mineQuirks(
      steps([
        { bash: 'ls .git/sessions/*.json 2>/dev/null; echo done', reported: '(eval):1: no matches found: .git/sessions/*.json' },
        {
          bash: "gh api repos/o/r/pulls/1/comments?per_page=100 --jq '.[]'",
          error: 'exit 1: (eval):1: no matches found: repos/o/r/pulls/1/comments?per_page=100',
        },
      ]),
    );
    expect(found.map((c) => c.key)).toEqual(['fix:demo/zsh-no-matches']);
    expect(found[0]?.action).toMatch(/zsh.*quote URLs that contain `\?`/);
    // Said as where it holds: a teammate's Linux machine runs bash, and "the Bash tool runs zsh here" would be false there.
    expect(found[0]?.action).toMatch(/^Where the shell is zsh\b/);
    expect(found[0]?.trigger).toBe('when a shell command uses a glob or a URL with `?` in demo');
  });

  it('has nothing to say about errors without one remedy, or calls the user refused', () => {
    const found = mineQuirks(
      steps([
        { bash: 'go build ./...', error: 'exit 1: main.go:3:1: undefined: x' },
        { bash: 'npm ci', error: 'npm error code ERESOLVE' },
      ]),
    );
    expect(found).toEqual([]);
    const refused = steps([{ bash: 'ls *.log', error: '(eval):1: no matches found: *.log' }]).map((o) => ({
      ...o,
      outcome: 'blocked' as const,
    }));
    expect(mineQuirks(refused)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { docsFolder, mineDocsInStep, mineParallels, variantsOf, withStructure } from './structure.js';

describe('parallel implementations', () => {
  it('are sibling folders holding the same file; two names in one folder or a test folder are not', () => {
    expect(variantsOf('agent/claudecode/hooks.go', 'agent/geminicli/hooks.go')).toEqual(['claudecode', 'geminicli']);
    expect(variantsOf('strategy/auto_commit.go', 'strategy/manual_commit.go')).toBeUndefined();
    expect(variantsOf('agent/hooks.go', 'agent/state.go')).toBeUndefined();
    expect(variantsOf('pkg/x/a.go', 'testutil/x/a.go')).toBeUndefined();
    expect(variantsOf('api/v1/types.go', 'api/v2/types.go')).toBeUndefined();
  });

  it('propose one rule per pair of variants, naming the files most sessions changed together', () => {
    const [found] = mineParallels(steps([{ edit: 'agent/claude/hooks.go' }, { edit: 'agent/gemini/hooks.go' }, { edit: 'README.md' }]));
    expect(found?.key).toBe('combo:demo:parallel=claude+gemini');
    expect(found?.action).toMatch(/^Apply the same change to the `claude` and the `gemini` side/);
    const composed = withStructure(found!, ['2026-02-01: `x` and `y`', '2026-02-02: `p` and `q`; `x` and `y`']);
    expect(composed.action).toContain('(`x` and `y`, `p` and `q`)');
    // Edited in the other order, the pair reads the same.
    const [flipped] = mineParallels(steps([{ edit: 'agent/gemini/hooks.go' }, { edit: 'agent/claude/hooks.go' }]));
    expect(flipped?.evidence).toEqual(found?.evidence);
  });
});

describe('docs kept in step with the code', () => {
  it('finds the docs folder of a page', () => {
    expect(docsFolder('docs/architecture/logging.md')).toBe('docs/architecture');
    expect(docsFolder('docs/intro.md')).toBe('docs');
    expect(docsFolder('src/notes.md')).toBeUndefined();
    expect(docsFolder('docs/architecture/diagram.png')).toBeUndefined();
  });

  it('counts a session only when it changed code too', () => {
    expect(mineDocsInStep(steps([{ edit: 'docs/architecture/logging.md' }]))).toEqual([]);
    const [found] = mineDocsInStep(steps([{ edit: 'log/logger.go' }, { edit: 'docs/architecture/logging.md' }]));
    expect(found?.key).toBe('combo:demo:docs=docs-architecture');
    expect(found?.action).toMatch(/update the matching page under `docs\/architecture\/` \(`logging\.md`\)/);
  });
});

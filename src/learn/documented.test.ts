import { describe, expect, it } from 'vitest';
import { restates } from './documented.js';

const DOC = '# Agent notes\n\nRun `mise run test` for unit tests and `mise run lint` before a PR.\nWe enable wrapcheck and errcheck.\n';

describe('already documented', () => {
  it('marks a project command or recipe written out in the instructions', () => {
    expect(restates({ miner: 'project-command', facts: { command: 'mise run test' } }, DOC)).toBe(true);
    expect(restates({ miner: 'project-command', facts: { command: 'mise run test:ci' } }, DOC)).toBe(false);
    expect(restates({ miner: 'recipe', facts: { command: 'go test -tags=integration ./it' } }, DOC)).toBe(false);
  });

  it('marks a lint fix whose rule the instructions name, and nothing without a distinctive subject', () => {
    expect(restates({ miner: 'error-fix', facts: { error: 'golangci-wrapcheck' } }, DOC)).toBe(true);
    expect(restates({ miner: 'error-fix', facts: { error: 'golangci-goconst' } }, DOC)).toBe(false);
    expect(restates({ miner: 'rejection', facts: { refused: 'git-commit-push' } }, DOC)).toBe(false);
    expect(restates({ miner: 'project-command', facts: { command: 'mise run test' } }, '')).toBe(false);
  });
});

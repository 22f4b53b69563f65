import { describe, expect, it } from 'vitest';
import { renamedRow } from './seen-here.js';

describe('renamedRow', () => {
  it("says another project's name as this one's where the text places the rule", () => {
    const row = {
      trigger: 'when writing code that `mise run lint` checks in improve-status-cmd-output',
      action: 'Satisfy golangci-lint wrapcheck up front.',
      title: 'improve-status-cmd-output lint enforces wrapcheck',
    };
    expect(renamedRow(row, 'improve-status-cmd-output', 'cli')).toEqual({
      trigger: 'when writing code that `mise run lint` checks in cli',
      action: 'Satisfy golangci-lint wrapcheck up front.',
      title: 'cli lint enforces wrapcheck',
    });
  });

  it('leaves a longer name that starts with it, and the name used as a plain word, alone', () => {
    const row = { trigger: 'in api-gateway, when the api changes', action: 'see the api docs', title: 'api-gateway rule' };
    expect(renamedRow(row, 'api', 'web')).toEqual(row);
  });
});

import { describe, expect, it } from 'vitest';
import { GATE_RULES, qualityGate } from './gate.js';
import type { Candidate } from './mine/candidate.js';

function candidate(over: Partial<Candidate>): Candidate {
  return {
    key: 'fix:golangci-errcheck',
    category: 'fix_pattern',
    domain: 'code-style',
    title: 't',
    trigger: 'when `mise run lint` fails',
    action: 'Check every returned error before `mise run lint`.',
    explain: '',
    project: 'p',
    projectName: 'demo',
    sessionId: 's',
    ts: '2026-03-01T00:00:00Z',
    evidence: [],
    subjects: ['mise run lint', 'golangci-lint errcheck'],
    miner: 'error-fix',
    notable: true,
    tags: [],
    ...over,
  };
}

describe('qualityGate', () => {
  it('passes a specific, actionable, non-obvious candidate', () => {
    expect(qualityGate(candidate({}))).toEqual({ pass: true, reasons: [] });
  });

  it('rejects candidates that name nothing concrete or only core tools', () => {
    expect(qualityGate(candidate({ subjects: [] })).reasons).toContain('not specific: it names no tool, file, command or error');
    expect(qualityGate(candidate({ subjects: ['Read', 'Edit'] })).pass).toBe(false);
  });

  it('rejects candidates with no action', () => {
    expect(qualityGate(candidate({ action: 'Interesting.' })).reasons).toContain('not actionable: no concrete action to take');
  });

  it('never accepts tool counts, Read -> Edit, the git flow or generic validation', () => {
    expect(qualityGate(candidate({ action: 'Use Bash: it was used 42 times.' })).reasons).toContain('tool counts are never instincts');
    expect(
      qualityGate(
        candidate({ key: 'seq:Read->Edit', category: 'sequence', subjects: ['Read', 'Edit', 'x.ts'], action: 'Edit after reading.' }),
      ).reasons,
    ).toContain('agent tool sequences (Read -> Edit and the like) are never instincts');
    expect(
      qualityGate(
        candidate({
          key: 'seq:git-add->git-commit',
          category: 'sequence',
          facts: { steps: ['git add', 'git commit'] },
          action: 'Run `git commit` next.',
        }),
      ).reasons,
    ).toContain('the standard git flow is never an instinct');
    expect(
      qualityGate(
        candidate({
          key: 'seq:go-build->go-test',
          category: 'sequence',
          facts: { steps: ['go build', 'go test'] },
          action: 'Run `go test` next.',
        }),
      ).reasons,
    ).toContain('generic validation with stock toolchain commands');
    expect(qualityGate(candidate({ action: 'Run the tests after every change to `src/`.' })).reasons).toContain(
      'generic advice a fresh session already follows',
    );
    expect(qualityGate(candidate({ facts: { generic: true } })).reasons[0]).toMatch(/generic failure/);
  });

  it('has a name for every rule', () => {
    // prettier-ignore
    expect(GATE_RULES.map((r) => r.name)).toEqual([
      'no chain of instincts', 'specific', 'actionable', 'no tool counts', 'no core tool sequences', 'no standard git flow', 'no generic validation', 'non-obvious pair',
      'preference names its subject',
    ]);
  });
});

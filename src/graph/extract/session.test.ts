import { describe, expect, it } from 'vitest';
import { baseCommand } from '../../capture/map/command.js';
import { commandKey, errorSignature, extractSessionFacts } from './session.js';
import type { SessionEvent } from './events.js';

const bash = (input: string, extra: Partial<SessionEvent> = {}): SessionEvent => ({
  ts: '2026-01-01T00:00:00Z',
  event: 'tool',
  tool: 'Bash',
  intent: '',
  input,
  files: [],
  outcome: 'ok',
  error: '',
  baseCommand: baseCommand(input),
  ...extra,
});

describe('session extraction helpers', () => {
  it('keys errors and fixes on the command and its subcommand', () => {
    expect(commandKey(bash('npm test -- --watch=false'))).toBe('npm test');
    expect(commandKey(bash('tsc --noEmit'))).toBe('tsc');
    expect(commandKey(bash('cd web && NODE_ENV=test npx vitest run'))).toBe('npx vitest');
    // As a captured observation carries it: the key is not repeated.
    expect(commandKey(bash('git commit -m x', { baseCommand: 'git commit' }))).toBe('git commit');
    expect(commandKey(bash('# nothing to run'))).toBe('Bash');
    expect(commandKey({ ...bash('x'), tool: 'mcp__db__query' })).toBe('mcp__db__query');
  });

  it('blames the command of a chain that failed, in its failure and in its fix', () => {
    const failing = 'Exit code 1\n--- FAIL: TestCheckpoint (0.02s)\nok  \tentire.io/cli/cmd/x/id\t(cached)\nFAIL\tentire.io/cli/cmd/x';
    const ctx = { project: { name: 'p', fingerprint: 'f', root: '/p' }, sessionId: 's' };
    const failed = bash('go vet ./... && go test ./cmd/x/...', { outcome: 'error', error: failing });
    expect(commandKey(failed)).toBe('go test');
    const edit = { ...bash(''), tool: 'Edit', input: '/p/cmd/x/checkpoint_test.go', files: ['/p/cmd/x/checkpoint_test.go'] };
    const fixed = extractSessionFacts([failed, edit, bash('go vet ./... && go test ./cmd/x/...')], ctx);
    const blocked = extractSessionFacts([bash('go vet ./... && go test ./cmd/x/...', { outcome: 'error', error: failing })], ctx);
    const said = [...fixed, ...blocked].map((f) => f.description).filter((d) => /fail/.test(d));
    expect(said).toEqual([
      'When go test fails with "--- FAIL: TestCheckpoint (Ns)" → edit cmd/x/checkpoint_test.go',
      'p: go test failed with "--- FAIL: TestCheckpoint (Ns)"',
    ]);
  });

  it('makes no fact of a merge or rebase conflict: no error of the project, no fix to learn', () => {
    const ctx = { project: { name: 'p', fingerprint: 'f', root: '/p' }, sessionId: 's' };
    const edit = { ...bash(''), tool: 'Edit', input: '/p/cmd/x/checkpoint_test.go', files: ['/p/cmd/x/checkpoint_test.go'] };
    for (const error of [
      'Exit code 1\nRebasing (6/10) Rebasing (7/10) error: could not apply 378b6b7... fix: handle codes\nhint: Resolve all conflicts manually',
      'Exit code 1\nAuto-merging cmd/x/a.go\nCONFLICT (content): Merge conflict in cmd/x/a.go\nAutomatic merge failed; fix conflicts and then commit the result.',
    ]) {
      const failed = bash('git add cmd/x/checkpoint_test.go && git rebase --continue', { outcome: 'error', error });
      const facts = extractSessionFacts([failed, edit, bash('git add cmd/x/checkpoint_test.go && git rebase --continue')], ctx);
      expect(facts.map((f) => f.description).filter((d) => /fail/.test(d))).toEqual([]);
    }
  });

  it('never signs a failed test run by a package that passed', () => {
    const run =
      'exit 1: [test] ERROR task failed | ok entire.io/cli/cmd/x (cached) | ok entire.io/cli/cmd/y 0.41s | --- FAIL: TestY (0.05s)';
    expect(errorSignature(run)).toBe('--- FAIL: TestY (Ns)');
    expect(errorSignature('exit 1: ok entire.io/cli/cmd/x (cached) | PASS | cmd/y/y.go:12:3: undefined: z')).toBe('<path>:N: undefined: z');
  });

  it('makes no fact of a line the shell could not read: no command of it ran', () => {
    const parse = bash('grep -n "x\\|y" a.go | sed "s/(/', { outcome: 'error', error: 'Exit code 1\n(eval):1: parse error near `)`' });
    const edit = { ...bash(''), tool: 'Edit', input: '/p/telemetry.go', files: ['/p/telemetry.go'] };
    const facts = extractSessionFacts([parse, edit, bash('grep -n x a.go')], {
      project: { name: 'p', fingerprint: 'f', root: '/p' },
      sessionId: 's',
    });
    expect(facts.map((f) => f.description).filter((d) => /fail/.test(d))).toEqual([]);
  });

  it('signs an error by the line that names it, paths and numbers blanked', () => {
    expect(
      errorSignature(
        'Exit code 1\n[lint] $ golangci-lint run ./...\n[lint] ERROR task failed\n\ncmd/cli/state_test.go:186:2: Error return value is not checked (errcheck)',
      ),
    ).toBe('<path>:N: Error return value is not checked (errcheck)');
    expect(errorSignature('Exit code 128\nfatal: unable to read e536')).toBe('fatal: unable to read e536');
    expect(errorSignature("TypeError: Cannot read properties of undefined (reading 'id')\n    at /app/src/a.ts:3:4")).toBe(
      'TypeError: Cannot read properties of undefined (reading <value>)',
    );
    expect(errorSignature('Exit code 1\n---\n---')).toBe('');
    expect(errorSignature('x'.repeat(200))).toHaveLength(80);
  });

  it('skips shell keywords and the agent’s own file-tool slips', () => {
    const facts = extractSessionFacts(
      [
        bash('for f in *.ts; do echo $f; done'),
        bash('npm run build'),
        {
          ...bash(''),
          tool: 'Edit',
          input: '/p/a.ts',
          files: ['/p/a.ts'],
          outcome: 'error',
          error: '<tool_use_error>File has not been read yet.</tool_use_error>',
        },
      ],
      { project: { name: 'p', fingerprint: 'f', root: '/p' }, sessionId: 's' },
    );
    expect(facts.map((f) => `${f.relation} ${f.target.name}`)).toEqual(['uses npm', 'has_component a.ts']);
  });

  it('names an error by its rule when its tool has one, and records nothing for an exit code alone', () => {
    const lint = (file: string) =>
      bash('mise run lint', {
        outcome: 'error',
        error: `exit 1: ${file}:3:2: Error return value of \`f.Close\` is not checked (errcheck)`,
      });
    const facts = extractSessionFacts([lint('a.go'), lint('b.go'), bash('make', { outcome: 'error', error: 'exit 2' })], {
      project: { name: 'p', fingerprint: 'f', root: '/p' },
      sessionId: 's',
    });
    const errors = facts.filter((f) => f.source.type === 'error_pattern' || f.target.type === 'error_pattern');
    expect([...new Set(errors.map((f) => (f.source.type === 'error_pattern' ? f.source.name : f.target.name)))]).toEqual([
      'mise run: golangci-lint errcheck',
    ]);
  });

  it('quotes an error once, whether or not its label came quoted', () => {
    const missing = bash('uv add httpx', { outcome: 'error', error: 'exit 127: /bin/bash: line 1: uv: command not found' });
    const facts = extractSessionFacts([missing], { project: { name: 'p', fingerprint: 'f', root: '/p' }, sessionId: 's' });
    const said = facts.map((f) => f.description).filter((d) => /command not found/.test(d));
    expect(said.length).toBeGreaterThan(0);
    for (const d of said) expect(d).not.toMatch(/""/);
  });
});

import { describe, expect, it } from 'vitest';
import { steps } from '../../test-support/learning.js';
import { blame, coreCommand, mineFixes } from './fixes.js';
import { errorSignatures } from './errors.js';

const ERRCHECK = 'Exit code 1 | [lint:go] cmd/x/state.go:134:3: Error return value of `os.WriteFile` is not checked (errcheck)';

describe('mineFixes', () => {
  it('finds a failing command, the edits, and the same command passing', () => {
    const [fix, ...rest] = mineFixes(
      steps([
        { bash: 'mise run fmt && mise run lint', error: ERRCHECK },
        { read: 'cmd/x/state.go' },
        { edit: 'cmd/x/state.go' },
        { bash: 'mise run lint 2>&1' },
      ]),
    );
    expect(rest).toEqual([]);
    expect(fix).toMatchObject({
      key: 'fix:golangci-errcheck',
      category: 'fix_pattern',
      domain: 'code-style',
      miner: 'error-fix',
      notable: true,
    });
    expect(fix?.trigger).toBe('when writing code that `mise run lint` checks in demo');
    expect(fix?.action).toContain('Error return value of `os.WriteFile` is not checked');
    expect(fix?.subjects).toEqual(expect.arrayContaining(['mise run lint', 'cmd/x/state.go']));
  });

  it('records fixes made by a command (go mod tidy) between the failure and the rerun', () => {
    const [fix] = mineFixes(
      steps([
        { bash: 'go test ./...', error: 'go: updates to go.mod needed; to update it: go mod tidy' },
        { bash: 'go mod tidy' },
        { bash: 'go test ./...' },
      ]),
    );
    expect(fix?.key).toBe('fix:go-updates-to-go-mod-needed-to');
    expect(fix?.action).toBe('Run `go mod tidy`, then rerun `go test`.');
  });

  it('calls a plain rerun that passes flaky, only for validation commands', () => {
    const flaky = mineFixes(
      steps([{ bash: 'mise run test 2>&1 | tail -20', error: 'Error: context deadline exceeded' }, { bash: 'mise run test' }]),
    );
    expect(flaky.map((c) => c.key)).toEqual(['fix:flaky-mise-run-test-error-context-deadline-exceeded']);
    const notFlaky = mineFixes(steps([{ bash: 'gh api repos/x/y', error: 'Error: rate limited' }, { bash: 'gh api repos/x/y' }]));
    expect(notFlaky).toEqual([]);
    // A rerun piped into a filter passed as the filter did, whatever the command said.
    const piped = mineFixes(
      steps([
        { bash: 'mise run lint', error: 'Error: maintidx: Function too complex' },
        { bash: 'mise run lint 2>&1 | grep -A2 "TestCondense"' },
      ]),
    );
    expect(piped).toEqual([]);
  });

  it('finds a recovery: a different command for the same purpose passing right after', () => {
    const [recovery] = mineFixes(steps([{ bash: 'npm test', error: 'bash: npm: command not found' }, { bash: 'pnpm run test' }]));
    expect(recovery).toMatchObject({ key: 'fix:npm-test-to-pnpm-run-test', miner: 'recovery', action: 'Use `pnpm run test` instead.' });
  });

  it('ignores the tool guard, git flow, unrelated commands, and reruns outside 30 minutes', () => {
    expect(
      mineFixes(
        steps([
          { bash: 'git rebase origin/main', error: 'error: could not apply 2dd8eff6' },
          { edit: 'a.go' },
          { bash: 'git rebase --continue' },
        ]),
      ),
    ).toEqual([]);
    expect(
      mineFixes(steps([{ bash: 'mise run lint', error: 'Sibling tool call errored' }, { edit: 'a.go' }, { bash: 'mise run lint' }])),
    ).toEqual([]);
    expect(mineFixes(steps([{ bash: 'mise run lint', error: ERRCHECK }, { edit: 'a.go' }, { bash: 'mise run test' }]))).toEqual([]);
    expect(
      mineFixes(steps([{ bash: 'mise run lint', error: ERRCHECK }, { edit: 'a.go' }, { wait: 31 * 60 }, { bash: 'mise run lint' }])),
    ).toEqual([]);
    expect(
      mineFixes(steps([{ bash: 'mise run lint', error: ERRCHECK }, { edit: 'a.go' }, { bash: 'mise run lint', error: ERRCHECK }])),
    ).toEqual([]);
  });

  it('blames the segment that matches the error', () => {
    const lint = errorSignatures(ERRCHECK)[0];
    expect(lint && blame(['mise run fmt', 'mise run lint'], lint)).toBe('mise run lint');
    const git = errorSignatures("fatal: pathspec '.entire' did not match any files")[0];
    expect(git && blame(['go build', 'git'], git)).toBe('git');
    expect(coreCommand('mise run test 2>&1 | tail -20')).toBe('mise run test');
  });
});

describe('a compile error fixed the same way', () => {
  const FLAG_PARSER = 'exit 1: cmd/main.go:12:5: undefined: flagParser';
  const session = (edit: string) =>
    mineFixes(steps([{ bash: 'go build ./...', error: FLAG_PARSER }, { edit }, { bash: 'go build ./...' }]));

  it('is keyed on the message and the files that fixed it, so it recurs only when fixed the same way', () => {
    const [a] = session('cmd/flags.go');
    const [b] = session('cmd/flags.go');
    const [c] = session('cmd/other.go');
    expect(a?.key).toBe(b?.key);
    expect(c?.key).not.toBe(a?.key);
    expect(a).toMatchObject({ category: 'fix_pattern', notable: false, facts: { generic: false } });
    expect(a?.trigger).toBe('when `go build` fails with "undefined: flagParser"');
    expect(a?.action).toMatch(/^Edit `cmd\/flags\.go`/);
  });

  it('is not a lesson when the fix spreads over many files', () => {
    const found = mineFixes(
      steps([
        { bash: 'go build ./...', error: FLAG_PARSER },
        { edit: 'a.go' },
        { edit: 'b.go' },
        { edit: 'c.go' },
        { bash: 'go build ./...' },
      ]),
    );
    // Only the generic compile-error candidate is left, which the quality gate refuses.
    expect(found.map((f) => f.facts?.generic)).toEqual([true]);
  });
});

describe('mineFixes on an ESLint run as a hook stores it', () => {
  it('keys the fix on the ESLint rule the failing lint named', () => {
    const error = "exit 1: 2:7 error 'unusedC' is assigned a value but never used no-unused-vars";
    const [fix] = mineFixes(steps([{ bash: 'pnpm lint', error }, { edit: 'src/math.js' }, { bash: 'pnpm lint' }]));
    expect(fix).toMatchObject({ key: 'fix:eslint-no-unused-vars', category: 'fix_pattern' });
    expect(fix?.action).toContain("'unusedC' is assigned a value but never used");
  });
});

describe('mineFixes on other agents', () => {
  it("reads Gemini CLI's run_shell_command and replace as the shell and an edit", () => {
    const claude = steps([
      { bash: 'npx eslint src', error: "exit 1: 3:7 error 'unused' is assigned a value but never used no-unused-vars" },
      { edit: 'src/app.js' },
      { bash: 'npx eslint src' },
    ]);
    const gemini = claude.map((o) =>
      o.tool === 'Bash' ? { ...o, tool: 'run_shell_command' } : o.tool === 'Edit' ? { ...o, tool: 'replace' } : o,
    );
    expect(mineFixes(gemini).map((c) => c.key)).toEqual(['fix:eslint-no-unused-vars']);
    expect(mineFixes(gemini.map((o) => (o.tool === 'run_shell_command' ? { ...o, tool: 'exec_command' } : o))).map((c) => c.key)).toEqual([
      'fix:eslint-no-unused-vars',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { summariseError } from '../../capture/map/outcome.js';
import { errorLines, errorSignatures, isToolGuardError, normaliseMessage } from './errors.js';

const ids = (text: string): string[] => errorSignatures(text).map((s) => s.id);

describe('errorSignatures', () => {
  it('reads golangci-lint findings, with gosec and staticcheck codes, from raw or joined summaries', () => {
    const raw =
      'Exit code 1\n[lint] $ golangci-lint run ./...\ncmd/entire/cli/setup.go:175:19: string `.entire/settings.json` has 3 occurrences, make it a constant (goconst)';
    const [sig] = errorSignatures(raw);
    expect(sig).toMatchObject({ id: 'golangci-goconst', label: 'golangci-lint goconst', generic: false });
    expect(sig?.headline).toBe('string `.entire/settings.json` has 3 occurrences, make it a constant');
    expect(ids('Exit code 1 | [lint:go] cmd/x/paths.go:601:7: G306: Expect WriteFile permissions to be 0600 or less (gosec)')).toEqual([
      'golangci-gosec-g306',
    ]);
    expect(ids('a.go:48:2: S1023: redundant return statement (staticcheck)')).toEqual(['golangci-staticcheck-s1023']);
    expect(errorSignatures('x_test.go:17: 17-67 lines are duplicate of `cmd/clean_test.go:16-66` (dupl)')[0]?.headline).toBe(
      'lines are duplicate of `cmd/clean_test.go`',
    );
  });

  it('keeps at most three distinct signatures, specific before generic', () => {
    // prettier-ignore
    const text = [
      'a.go:1:1: undefined: foo (typecheck)',
      'b.go:2:2: Error return value of `os.WriteFile` is not checked (errcheck)',
      'c.go:3:3: Error return value of `json.Marshal` is not checked (errcheck)',
      'd.go:4:4: func isIdle is unused (unused)',
      'e.go:5:5: G104: Errors unhandled (gosec)',
    ].join('\n');
    expect(ids(text)).toEqual(['golangci-errcheck', 'golangci-unused', 'golangci-gosec-g104']);
  });

  it('marks compile errors, failing tests, panics and merge conflicts as generic', () => {
    for (const text of [
      'cmd/x/reset_test.go:31:45: undefined: testCommitOptions',
      '--- FAIL: TestResetCmd_NoShadowBranch (0.02s)',
      'FAIL\tentire.io/cli/cmd/entire/cli [build failed]',
      'panic: invalid checkpoint ID "gemini123456"',
      'error: could not apply 2dd8eff6... addressed PR feedback',
    ]) {
      const [sig] = errorSignatures(text);
      expect(sig?.generic, text).toBe(true);
    }
  });

  it('recognises npm, TypeScript, ESLint, Python and missing commands', () => {
    expect(ids('npm ERR! code ERESOLVE')).toEqual(['npm-eresolve']);
    expect(ids("src/a.ts(3,5): error TS2307: Cannot find module 'zod'")).toEqual(['ts-ts2307']);
    expect(errorSignatures("src/a.ts(3,5): error TS2345: Argument of type 'string'")[0]?.generic).toBe(true);
    expect(ids('  12:5  error  Unexpected any  @typescript-eslint/no-explicit-any')).toEqual(['eslint-typescript-eslint-no-explicit-any']);
    expect(ids("ModuleNotFoundError: No module named 'yaml'")).toEqual(['python-modulenotfounderror-yaml']);
    // As a hook stores it: one line, the spaces squeezed, every finding of the run kept.
    const stored = summariseError(
      "Exit code 1\n/p/src/a.js\n  2:7  error  'x' is assigned a value but never used  no-unused-vars\n  9:1  error  Unexpected any  @typescript-eslint/no-explicit-any\n",
    );
    expect(ids(stored)).toEqual(['eslint-no-unused-vars', 'eslint-typescript-eslint-no-explicit-any']);
    expect(errorSignatures(stored)[0]?.headline).toMatch(/'x' is assigned a value but never used$/);
    expect(ids('bash: pnpm: command not found')).toEqual(['command-not-found-pnpm']);
    // Vitest's and Jest's FAIL line is no Go test.
    expect(ids(' FAIL  src/cart.test.ts > cart > applies the discount')).toEqual(['js-test-failure']);
    expect(ids('FAIL src/components/Button.spec.tsx')).toEqual(['js-test-failure']);
    expect(ids('FAIL\tentire.io/cli/cmd/entire/cli\t0.512s')).toEqual(['go-test-failure']);
  });

  it('falls back to a normalised message for tool errors, and to nothing for a bare exit code', () => {
    expect(ids('Error: context deadline exceeded')).toEqual(['error-context-deadline-exceeded']);
    expect(ids('go: cannot find main module, but found .git/config in /Users/x/repo')).toEqual(['go-cannot-find-main-module-but-found']);
    expect(ids('Exit code 1')).toEqual([]);
    expect(ids('')).toEqual([]);
  });

  it('ignores the agent tool guard', () => {
    expect(isToolGuardError('<tool_use_error>Sibling tool call errored</tool_use_error>')).toBe(true);
    expect(isToolGuardError('File has not been read yet. Read it first before writing to it.')).toBe(true);
    expect(ids('File has not been read yet. Read it first before writing to it.')).toEqual([]);
  });
});

describe('helpers', () => {
  it('splits joined summaries and strips task prefixes', () => {
    expect(errorLines('Exit code 1 | [lint:go] a.go:1:1: x (y)\n  ')).toEqual(['Exit code 1', 'a.go:1:1: x (y)']);
  });

  it('normalises paths, numbers and hashes away', () => {
    expect(normaliseMessage('unable to read e53647ba1f1e5203bedff558b482f178db045555 in /tmp/x/y at line 42')).toBe(
      'unable to read in at line',
    );
  });

  it('reads every finding of a captured summary, the headline after its exit code included', () => {
    const summary =
      'exit 1: [lint] cmd/b.go:3:9: error returned from external package is unwrapped: sig: func os.ReadFile (wrapcheck) | [lint] cmd/a.go:10:2: Error return value of `f.Close` is not checked (errcheck)';
    expect(errorSignatures(summary, 12).map((s) => s.id)).toEqual(['golangci-wrapcheck', 'golangci-errcheck']);
  });
});

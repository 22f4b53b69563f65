import { describe, expect, it } from 'vitest';
import { reportedFindings, resultFacts, summariseError } from './outcome.js';

describe('error summaries', () => {
  it('keeps every finding of a lint run beside its headline, so each rule can be learned', () => {
    const output = [
      '[lint] cmd/a.go:10:2: Error return value of `f.Close` is not checked (errcheck)',
      '[lint] cmd/b.go:3:9: error returned from external package is unwrapped: sig: func os.ReadFile(name string) ([]byte, error) (wrapcheck)',
      '[lint] cmd/b.go:3:9: error returned from external package is unwrapped: sig: func os.ReadFile(name string) ([]byte, error) (wrapcheck)',
      '[lint] 2 issues:',
      '[lint] ERROR task failed',
    ].join('\n');
    const summary = summariseError(output, 1);
    expect(summary.split(' | ')).toHaveLength(2);
    expect(summary).toMatch(/^exit 1: \[lint\] cmd\/a\.go:10:2: Error return value .*\(errcheck\)/);
    expect(summary).toContain('(wrapcheck)');
  });

  it('bounds the summary however long the output', () => {
    const output = Array.from({ length: 500 }, (_, i) => `x.go:${i}:1: ${'word '.repeat(50)}(lll)`).join('\n');
    expect(summariseError(output, 1).length).toBeLessThanOrEqual(2_000);
  });

  it('keeps what the person said when refusing a call, and says so when they said nothing', () => {
    const said =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\ndo not stash anything, read the files you need";
    expect(resultFacts({ failed: true, error: said })).toMatchObject({
      outcome: 'blocked',
      error: 'rejected by the user: do not stash anything, read the files you need',
    });
    expect(resultFacts({ failed: true, error: "The user doesn't want to proceed with this tool use." })).toMatchObject({
      outcome: 'blocked',
      error: 'rejected by the user',
    });
  });
});

describe('failures a call that exited 0 still printed', () => {
  it("keeps lint findings hidden by a pipe and the errors of zsh, from Claude Code's stdout", () => {
    const stdout = [
      '[lint:go] cmd/setup.go:888:2: missing cases in switch of type cli.stanzaStatus: cli.stanzaNotFound (exhaustive)',
      '[lint:go] \tswitch status {',
      '[lint:go] 1 issues:',
    ].join('\n');
    expect(resultFacts({ response: { stdout, stderr: '', interrupted: false } })).toEqual({
      outcome: 'ok',
      error: '[lint:go] cmd/setup.go:888:2: missing cases in switch of type cli.stanzaStatus: cli.stanzaNotFound (exhaustive)',
    });
    expect(resultFacts({ response: '(eval):1: no matches found: logs/*.log\ndone' })).toMatchObject({
      outcome: 'ok',
      error: '(eval):1: no matches found: logs/*.log',
    });
  });

  it('does not mistake ordinary output for a failure', () => {
    expect(reportedFindings('cmd/a.go:12: func main() {\nREADME.md:3:1: see the (docs)x\nok  \tpkg\t0.2s')).toBe('');
    expect(resultFacts({ response: { stdout: 'Exit code 1 appears in this log', stderr: '' } })).toEqual({ outcome: 'ok', error: '' });
  });
});

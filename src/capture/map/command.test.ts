import { describe, expect, it } from 'vitest';
import { baseCommand, failedCommand, isNoiseCommand, statusCommands } from './command.js';
import { exitCodeFrom, isBlockedError, summariseError } from './outcome.js';
import { toolKind } from './tool-kind.js';

describe('toolKind', () => {
  it("knows every agent's names for the same kinds of tool", () => {
    expect(['Bash', 'run_shell_command', 'Shell', 'local_shell'].map(toolKind)).toEqual(['shell', 'shell', 'shell', 'shell']);
    expect(['Edit', 'MultiEdit', 'replace', 'apply_patch'].map(toolKind)).toEqual(['edit', 'edit', 'edit', 'edit']);
    expect(['Write', 'write_file'].map(toolKind)).toEqual(['write', 'write']);
    expect(['Read', 'read_file', 'Grep', 'Glob', 'search_file_content'].map(toolKind)).toEqual([
      'read',
      'read',
      'search',
      'search',
      'search',
    ]);
    expect(['TodoWrite', 'TaskUpdate', 'ExitPlanMode'].map(toolKind)).toEqual(['bookkeeping', 'bookkeeping', 'bookkeeping']);
    expect(toolKind('mcp__linear__create_issue')).toBe('mcp');
    expect(toolKind('SomethingNew')).toBe('other');
  });
});

describe('shell commands', () => {
  it('finds the base command, skipping cd, env assignments and wrappers', () => {
    expect(baseCommand('cd repo && git -C sub commit -m "x"')).toBe('git commit');
    expect(baseCommand('FOO=1 BAR=2 npm run build')).toBe('npm run');
    expect(baseCommand('sudo timeout 30 /usr/local/bin/pytest -x')).toBe('pytest');
    expect(baseCommand('go test ./cmd/... -run TestX')).toBe('go test');
    expect(baseCommand('./scripts/release.sh v1')).toBe('release.sh');
    expect(baseCommand('')).toBe('');
    expect(baseCommand('# build first\nexport GOFLAGS=-mod=mod\nfor p in a b; do go vet $p; done')).toBe('go vet');
    expect(baseCommand('docker run \\\n  --rm img')).toBe('docker run');
  });

  it('names the command of a chain that failed, not the first one', () => {
    const rebasing = 'Exit code 1\nRebasing (7/10)\rerror: could not apply 378b6b7... fix\nhint: "git add/rm <conflicted_files>"';
    expect(failedCommand('git add cmd/x/checkpoint_test.go && git rebase --continue', rebasing)).toBe('git rebase');
    expect(failedCommand('git fetch origin main && git rebase origin/main', `From github.com:o/r\n${rebasing}`)).toBe('git rebase');
    // The error names the step: cd and stat failed, not what they guarded.
    expect(failedCommand('cd cmd/x && go test -run TestX', 'Exit code 1\n(eval):cd:1: no such file or directory: cmd/x')).toBe('cd');
    expect(failedCommand('echo {} > a.json && stat a.json', 'Exit code 1\nstat: a.json: stat: No such file or directory')).toBe('stat');
    // After ; or || the line exits as the later command; a trailing tail passes what it is fed.
    expect(failedCommand('npm run build; npm test', 'Exit code 1')).toBe('npm test');
    expect(failedCommand('npx tsc || npx eslint src', 'Exit code 1')).toBe('npx eslint');
    expect(failedCommand('go build ./... && go test ./... 2>&1 | tail -30', 'Exit code 1')).toBe('go test');
    expect(failedCommand("gh api repos/o/r/pulls | jq '.['", 'Exit code 3\njq: error: syntax error')).toBe('jq');
    // Set-up and loop grammar are not what failed.
    expect(failedCommand('npm test && cd ..', 'Exit code 1')).toBe('npm test');
    expect(failedCommand('for p in a b; do go vet $p; done', 'Exit code 1')).toBe('go vet');
    expect(failedCommand('npm test', 'Exit code 1')).toBe('npm test');
  });

  it('lists the steps a passing line shows to pass', () => {
    expect(statusCommands('cd x && git add f && git rebase --continue')).toEqual(['git rebase', 'git add', 'cd']);
    expect(statusCommands('npm run build; npm test | tail -5')).toEqual(['npm test']);
  });

  it('treats looking-around commands as noise, and anything that acts as signal', () => {
    for (const c of [
      'ls -la',
      'cat README.md',
      'git status',
      'git diff HEAD~1',
      'git log --oneline -5',
      'pwd',
      'cd src && ls',
      'git branch',
      'git status && git diff',
      '# look\ngit log',
    ]) {
      expect(isNoiseCommand(c), c).toBe(true);
    }
    for (const c of ['npm test', 'git commit -m x', 'cat a | grep b', 'echo hi > out.txt', 'git branch -D old', 'ls; make', '']) {
      expect(isNoiseCommand(c), c).toBe(false);
    }
  });
});

describe('errors', () => {
  it('recognises refusals by the user or a hook', () => {
    expect(isBlockedError("The user doesn't want to proceed with this tool use. The tool use was rejected")).toBe(true);
    expect(isBlockedError('Permission to use Bash has been denied.')).toBe(true);
    expect(isBlockedError('Exit code 1\nFAIL')).toBe(false);
  });

  it('reads exit codes', () => {
    expect(exitCodeFrom('Exit code 128\nfatal: x')).toBe(128);
    expect(exitCodeFrom('Error: Exit code 2')).toBe(2);
    expect(exitCodeFrom('process exited with code 3')).toBe(3);
    expect(exitCodeFrom('no code here')).toBeUndefined();
  });

  it('summarises an error in one line, preferring the line that names it', () => {
    expect(summariseError('Exit code 1\n=== RUN TestX\n--- FAIL: TestX (0.00s)\nok other')).toBe('exit 1: --- FAIL: TestX (0.00s)');
    expect(summariseError('<tool_use_error>File does not exist.</tool_use_error>')).toBe('File does not exist.');
    expect(summariseError('Exit code 2')).toBe('exit 2');
    expect(summariseError('\u001b[31mred error\u001b[0m')).toBe('red error');
  });
});

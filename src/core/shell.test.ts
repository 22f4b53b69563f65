import { describe, expect, it } from 'vitest';
import { shellWords, splitShell, statusPipelines } from './shell.js';

const texts = (line: string): string[] => splitShell(line).map((s) => s.text);

describe('splitShell', () => {
  it('splits at operators outside quotes, keeping how commands join', () => {
    expect(splitShell(`cd /x && go test ./... | tail -5; echo "a && b" || true`)).toEqual([
      { text: 'cd /x', joiner: '&&' },
      { text: 'go test ./...', joiner: '|' },
      { text: 'tail -5', joiner: ';' },
      { text: 'echo "a && b"', joiner: '||' },
      { text: 'true', joiner: '' },
    ]);
  });

  it('splits at newlines, pipes of both streams, and not at a clobber, a single & or an escaped ;', () => {
    expect(texts('make\nmake test')).toEqual(['make', 'make test']);
    expect(splitShell('go test |& tee log')).toEqual([
      { text: 'go test', joiner: '|' },
      { text: 'tee log', joiner: '' },
    ]);
    expect(texts('echo x >| out.txt')).toEqual(['echo x >| out.txt']);
    expect(texts('server & sleep 1')).toEqual(['server & sleep 1']);
    expect(texts('find . -name "*.tmp" -exec rm {} \\; && ls')).toEqual(['find . -name "*.tmp" -exec rm {} \\;', 'ls']);
  });

  it('keeps escaped quotes inside double quotes, and backslashes literal inside single quotes', () => {
    expect(texts('echo "say \\"hi; there\\"" ; ls')).toEqual(['echo "say \\"hi; there\\""', 'ls']);
    expect(texts("echo 'a\\' ; ls")).toEqual(["echo 'a\\'", 'ls']);
  });

  it('joins continued lines and drops heredoc bodies but not the line that opens them', () => {
    expect(texts('docker run \\\n  --rm img')).toEqual(['docker run    --rm img']);
    expect(texts("cat <<'EOF' > notes.md\nrm -rf / && echo gone\nEOF\ngit add notes.md")).toEqual([
      'cat <<EOF > notes.md',
      'git add notes.md',
    ]);
    expect(texts('kubectl apply -f - <<-END\n\tkind: Pod\n\tEND')).toEqual(['kubectl apply -f - <<END']);
    expect(texts('git commit -m "$(cat <<\'EOF\'\nFix && things\nEOF\n)" && git push')).toEqual([
      'git commit -m "$(cat <<EOF\n)"',
      'git push',
    ]);
  });

  it('gives nothing for blank input or operators alone', () => {
    expect(splitShell('')).toEqual([]);
    expect(splitShell(' ; && | ')).toEqual([]);
  });
});

describe('statusPipelines', () => {
  const status = (line: string): string[][] => statusPipelines(splitShell(line)).map((p) => p.map((s) => s.text));

  it('gives what can have failed, last first: back through && only, each pipeline whole', () => {
    expect(status('git add f && git rebase --continue')).toEqual([['git rebase --continue'], ['git add f']]);
    expect(status('a; b && c | d')).toEqual([['c', 'd'], ['b']]);
    expect(status('a || b')).toEqual([['b']]);
    expect(status('a && b || c')).toEqual([['c']]);
    expect(status('a | b')).toEqual([['a', 'b']]);
    expect(status('')).toEqual([]);
  });
});

describe('shellWords', () => {
  it('splits on white space and removes quotes', () => {
    expect(shellWords(`git commit -m "fix: a b" --author='Ann Lee'`)).toEqual(['git', 'commit', '-m', 'fix: a b', '--author=Ann Lee']);
    expect(shellWords('  npm   test  ')).toEqual(['npm', 'test']);
    expect(shellWords('echo "" x')).toEqual(['echo', '', 'x']);
  });

  it('reads escapes as the shell does', () => {
    expect(shellWords('echo a\\ b "c\\"d" "e\\f" \'g\\h\'')).toEqual(['echo', 'a b', 'c"d', 'e\\f', 'g\\h']);
  });

  it('keeps redirects and unclosed quotes as words', () => {
    expect(shellWords('npm test 2>&1 > out.log')).toEqual(['npm', 'test', '2>&1', '>', 'out.log']);
    expect(shellWords('echo "open')).toEqual(['echo', 'open']);
  });
});

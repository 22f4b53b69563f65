import { describe, expect, it } from 'vitest';
import {
  commandSignature,
  isEcosystemDefault,
  isGitFlow,
  isNoise,
  isProjectSpecific,
  isValidation,
  meaningfulSegments,
  purposeOf,
  signatureSlug,
  splitCommand,
} from './commands.js';

describe('splitCommand', () => {
  it('splits chains and pipes outside quotes, keeping how segments join', () => {
    const parts = splitCommand(`cd /repo && mise run fmt && mise run lint 2>&1 | tail -30; echo "a && b"`);
    expect(parts.map((p) => [p.signature, p.joiner])).toEqual([
      ['cd', '&&'],
      ['mise run fmt', '&&'],
      ['mise run lint', '|'],
      ['tail', ';'],
      ['echo', ''],
    ]);
  });

  it('drops heredoc bodies and joins continued lines', () => {
    const parts = splitCommand('git commit -m "$(cat <<\'EOF\'\nFix && things\nEOF\n)" && git push');
    expect(parts.map((p) => p.signature)).toContain('git push');
    expect(parts.map((p) => p.signature)).not.toContain('things');
    expect(splitCommand('go test \\\n  ./... -run X').map((p) => p.signature)).toEqual(['go test']);
  });
});

describe('commandSignature', () => {
  it.each([
    ['mise run test -- -run TestResetCmd -v', 'mise run test'],
    ['mise run test:integration 2>&1', 'mise run test:integration'],
    ['go test -v -tags=integration ./cmd/entire/cli/integration_test/', 'go test'],
    ['FOO=1 npm run build --watch', 'npm run build'],
    ['export STRATEGY=manual-commit', 'export'],
    ['./scripts/check.sh --fast', './scripts/check.sh'],
    ['.claude/skills/test-repo/test-harness.sh setup-repo', '.claude/skills/test-repo/test-harness.sh setup-repo'],
    ['gh pr view 158 --json reviews', 'gh pr view'],
    ['git -C /repo log --oneline', 'git'],
    ['python3 -m pytest -q', 'python3 -m pytest'],
    ['make test-integration', 'make test-integration'],
    ['sudo docker compose up -d', 'docker compose'],
  ])('%s -> %s', (command, signature) => {
    expect(commandSignature(command).signature).toBe(signature);
  });

  it('gives nothing for an empty segment', () => {
    expect(commandSignature('   ').signature).toBe('');
  });
});

describe('classification', () => {
  it('tells noise, git flow, stock toolchain and project tasks apart', () => {
    expect(isNoise('ls')).toBe(true);
    expect(isNoise('grep')).toBe(true);
    expect(isNoise('mise run lint')).toBe(false);
    expect(isNoise('./scripts/check.sh')).toBe(false);
    // Pieces of a multi-line command are not programs: a comment, a variable, a continued line's flag.
    for (const piece of ['#', '$line', '-r', '-u', '"$f"']) expect(isNoise(piece), piece).toBe(true);
    expect(isGitFlow('git commit')).toBe(true);
    expect(isGitFlow('gh pr create')).toBe(true);
    expect(isGitFlow('git')).toBe(true);
    expect(isGitFlow('mise run lint')).toBe(false);
    expect(isEcosystemDefault('go test')).toBe(true);
    expect(isEcosystemDefault('npm test')).toBe(true);
    expect(isEcosystemDefault('mise run test')).toBe(false);
    expect(isProjectSpecific('mise run test:ci')).toBe(true);
    expect(isProjectSpecific('npm run e2e')).toBe(true);
    expect(isProjectSpecific('pnpm lint')).toBe(true);
    expect(isProjectSpecific('pnpm install')).toBe(false);
    expect(isProjectSpecific('./scripts/release.sh')).toBe(true);
    expect(isProjectSpecific('go test')).toBe(false);
    expect(isProjectSpecific('mise')).toBe(false);
  });

  it('reads the purpose from the task name, not the runner verb', () => {
    expect(purposeOf('mise run test:integration')).toBe('test');
    expect(purposeOf('mise run fmt')).toBe('format');
    expect(purposeOf('golangci-lint')).toBe('lint');
    expect(purposeOf('mise run dup')).toBeUndefined();
    expect(purposeOf('.claude/skills/test-repo/test-harness.sh setup-repo')).toBe('setup');
    expect(purposeOf('.claude/skills/test-repo/test-harness.sh list-rewind-points')).toBeUndefined();
    expect(isValidation('mise run lint')).toBe(true);
    expect(isValidation('mise run dup')).toBe(false);
  });

  it('knows the Python and TypeScript toolchains, not only Go and mise', () => {
    const purpose = (command: string) => purposeOf(meaningfulSegments(command)[0]?.signature ?? '');
    expect(['uv run pytest -q', 'poetry run pytest', 'pytest tests/', 'tox', 'npx vitest run', 'pnpm vitest'].map(purpose)).toEqual(
      Array(6).fill('test'),
    );
    expect(['uv run ruff check .', 'ruff check src', 'npx eslint .'].map(purpose)).toEqual(['lint', 'lint', 'lint']);
    expect(['uv run ruff format .', 'ruff format', 'black .'].map(purpose)).toEqual(['format', 'format', 'format']);
    expect(['uv run mypy src', 'npx tsc --noEmit', 'pyright'].map(purpose)).toEqual(['typecheck', 'typecheck', 'typecheck']);
  });

  it('keeps only meaningful segments and slugs them for keys', () => {
    expect(meaningfulSegments('cd /x && git add . && mise run lint | tail -5').map((s) => s.signature)).toEqual(['mise run lint']);
    expect(signatureSlug('mise run test:ci')).toBe('mise-run-test:ci');
    expect(signatureSlug('./scripts/check.sh')).toBe('scripts-check.sh');
  });
});

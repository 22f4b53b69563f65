import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { inGitDirectory, isInside, protectedReason, realTarget } from './confine.js';

const dir = tempDir();
afterAll(() => dir.cleanup());

describe('isInside and inGitDirectory', () => {
  it('tells a path below a root from one beside or above it', () => {
    expect(isInside('/a/b/c', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/bc', '/a/b')).toBe(false);
    expect(isInside('/a', '/a/b')).toBe(false);
    expect(isInside('/a/..b', '/a')).toBe(true);
  });
  it('finds a .git directory in any case, not a file merely named like one', () => {
    expect(inGitDirectory('/repo/.git/config')).toBe(true);
    expect(inGitDirectory('/repo/.GIT/hooks/pre-commit')).toBe(true);
    expect(inGitDirectory('/repo/.github/CLAUDE.md')).toBe(false);
    expect(inGitDirectory('/repo/.gitignore')).toBe(false);
  });
});

describe('realTarget and protectedReason', () => {
  const home = join(dir.path, 'home');
  const repo = join(dir.path, 'repo');
  mkdirSync(home, { recursive: true });
  mkdirSync(join(home, 'exports'));
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(home, 'homunculus.db'), 'db');
  writeFileSync(join(repo, '.git', 'config'), '[core]\n');
  symlinkSync(join(home, 'homunculus.db'), join(repo, 'CLAUDE.md'));
  symlinkSync(join(repo, '.git'), join(repo, 'gitlink'));
  symlinkSync(join(repo, 'nowhere'), join(repo, 'AGENTS.md'));

  it('follows links in the file and in its directories', () => {
    expect(realTarget(join(repo, 'CLAUDE.md'))).toBe(join(home, 'homunculus.db'));
    expect(realTarget(join(repo, 'gitlink', 'config'))).toBe(join(repo, '.git', 'config'));
    expect(realTarget(join(repo, 'new.md'))).toBe(join(repo, 'new.md'));
    expect(realTarget(join(repo, 'gitlink', 'new', 'deeper.md'))).toBe(join(repo, '.git', 'new', 'deeper.md'));
  });
  it('refuses a dangling link, as the file or as a directory on the way', () => {
    expect(() => realTarget(join(repo, 'AGENTS.md'))).toThrow(/symbolic link to nothing/);
    expect(() => realTarget(join(repo, 'AGENTS.md', 'x', 'CLAUDE.md'))).toThrow(/symbolic link to nothing/);
  });
  it('protects the home (but for the folders allowed) and .git', () => {
    expect(protectedReason(realTarget(join(repo, 'CLAUDE.md')), home)).toMatch(/Homunculus home/);
    expect(protectedReason(join(repo, '.git', 'config'), home)).toMatch(/\.git/);
    expect(protectedReason(join(repo, '.git'), home)).toMatch(/\.git/);
    expect(protectedReason(join(home, 'exports', 'x.tar.gz'), home, [join(home, 'exports')])).toBeUndefined();
    expect(protectedReason(join(home, 'homunculus.db'), home, [join(home, 'exports')])).toMatch(/home/);
    expect(protectedReason(join(repo, 'CLAUDE.md'), home)).toBeUndefined();
  });
});

describe('realTarget through a file', () => {
  it('names the file standing where a folder should be, and the fix, as no usage error', () => {
    const file = join(dir.path, 'a-file');
    writeFileSync(file, 'x');
    const through = join(file, 'sub', 'CLAUDE.md');
    expect(() => realTarget(through)).toThrow(
      expect.objectContaining({
        message: `Cannot use ${through}: ${file} is a file, not a folder.`,
        hint: `Name a path in a folder that exists, or move ${file} aside.`,
        exitCode: 1,
      }),
    );
  });
});

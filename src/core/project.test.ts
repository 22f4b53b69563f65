import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { detectProject, fingerprintOf, normaliseRemote } from './project.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.cleanup());

const repo = (name: string, config?: string): string => {
  const root = join(dir.path, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  if (config) writeFileSync(join(root, '.git', 'config'), config);
  return root;
};

describe('project fingerprint', () => {
  it('normalises the many spellings of one remote to one key', () => {
    // prettier-ignore
    const spellings = [
      'git@github.com:Org/Repo.git',
      'https://github.com/org/repo',
      'https://user:token@github.com/Org/Repo.git/',
      'ssh://git@github.com/org/repo.git',
      'ssh://git@github.com:22/org/repo.git',
    ];
    expect(new Set(spellings.map(normaliseRemote))).toEqual(new Set(['github.com/org/repo']));
  });

  it('gives two clones of one remote the same fingerprint, from any subdirectory', () => {
    const config =
      '[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@example.com:x/other.git\n[remote "origin"]\n\turl = git@github.com:Org/Repo.git\n';
    const a = repo('a', config);
    const b = repo('b', config.replace('git@github.com:Org/Repo.git', 'https://github.com/org/repo'));
    const pa = detectProject(join(a, 'src', 'deep'));
    expect(pa).toEqual({
      fingerprint: fingerprintOf('remote:github.com/org/repo'),
      name: 'a',
      root: a,
      remote: 'git@github.com:Org/Repo.git',
    });
    expect(detectProject(b).fingerprint).toBe(pa.fingerprint);
    expect(pa.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('falls back to the repository root without a remote, and to the directory outside git', () => {
    const root = repo('local');
    expect(detectProject(join(root, 'src')).fingerprint).toBe(fingerprintOf(`path:${root}`));
    const plain = join(dir.path, 'plain');
    mkdirSync(plain);
    expect(detectProject(plain)).toMatchObject({ name: 'plain', root: plain, remote: null });
    expect(detectProject('')).toEqual({ fingerprint: '', name: '', root: '', remote: null });
  });

  it('follows a worktree .git file to the main repository config', () => {
    const main = repo('main', '[remote "origin"]\n\turl = https://github.com/org/repo.git\n');
    mkdirSync(join(main, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    const wt = join(dir.path, 'wt');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'wt')}\n`);
    expect(detectProject(wt).fingerprint).toBe(detectProject(main).fingerprint);
    expect(detectProject(wt).name).toBe('main');
  });

  it('treats <repo>/.worktrees/<n> paths from another machine as the repository itself', () => {
    const a = detectProject('/nowhere/alex/workspace/cli/.worktrees/1');
    const b = detectProject('/nowhere/alex/workspace/cli/.worktrees/2/src');
    const repo = detectProject('/nowhere/alex/workspace/cli');
    expect(a).toMatchObject({ name: 'cli', fingerprint: repo.fingerprint });
    expect(b.fingerprint).toBe(repo.fingerprint);
    expect(detectProject('/nowhere/worktrees-are-fun').name).toBe('worktrees-are-fun');
  });

  it("knows Claude Code's and the Codex app's worktrees once they are gone: the repository, never .claude or .codex", () => {
    const repo = detectProject('/nowhere/alex/workspace/cli');
    const claude = detectProject('/nowhere/alex/workspace/cli/.claude/worktrees/feature-auth/cmd/entire');
    const codex = detectProject('/nowhere/alex/.codex/worktrees/3f2a/cli/cmd');
    expect(claude).toMatchObject({ name: 'cli', fingerprint: repo.fingerprint });
    expect(codex).toMatchObject({ name: 'cli', fingerprint: repo.fingerprint });
    // Two repositories' worktrees stay two projects.
    expect(detectProject('/nowhere/alex/.codex/worktrees/3f2a/api').fingerprint).not.toBe(codex.fingerprint);
    expect(detectProject('/nowhere/alex/workspace/api/.claude/worktrees/x').fingerprint).not.toBe(claude.fingerprint);
  });

  it('gives a removed worktree of a repository this machine has that repository, remote and all', () => {
    const main = join(dir.path, 'repo');
    mkdirSync(join(main, '.git'), { recursive: true });
    writeFileSync(join(main, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:org/repo.git\n');
    const gone = detectProject(join(main, '.claude', 'worktrees', 'bright-running-fox'));
    expect(gone).toMatchObject({ name: 'repo', remote: 'git@github.com:org/repo.git', fingerprint: detectProject(main).fingerprint });
  });

  it('treats checkouts from other machines by their repository name, but keeps local folders apart by path', () => {
    expect(detectProject('/nowhere/soph/Work/cli').fingerprint).toBe(detectProject('/nowhere/dip/Repositories/cli').fingerprint);
    expect(detectProject('/nowhere/soph/Work/cli').fingerprint).not.toBe(detectProject('/nowhere/soph/Work/api').fingerprint);
    const one = join(dir.path, 'x', 'notes');
    const two = join(dir.path, 'y', 'notes');
    mkdirSync(one, { recursive: true });
    mkdirSync(two, { recursive: true });
    expect(detectProject(one).fingerprint).not.toBe(detectProject(two).fingerprint);
  });
});

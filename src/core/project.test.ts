import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectStack, fingerprint, normaliseRemote, projectInfo, remoteFromConfig, stackFromFiles } from './project.js';

describe('normaliseRemote', () => {
  it('maps every spelling of one repository to one string', () => {
    const forms = [
      'git@github.com:Owner/Repo.git',
      'https://github.com/owner/repo',
      'https://user:pw@github.com/owner/repo.git/',
      'ssh://git@github.com:22/owner/repo.git',
      'git://github.com/owner/repo',
    ];
    for (const f of forms) expect(normaliseRemote(f)).toBe('github.com/owner/repo');
  });
});

describe('remoteFromConfig', () => {
  it('prefers origin and falls back to the first remote', () => {
    const cfg = '[core]\n\tbare = false\n[remote "upstream"]\n\turl = https://a/x\n[remote "origin"]\n\turl = https://b/y\n\tfetch = +refs\n';
    expect(remoteFromConfig(cfg)).toBe('https://b/y');
    expect(remoteFromConfig('[remote "fork"]\n url = git@h:o/r\n')).toBe('git@h:o/r');
    expect(remoteFromConfig('[core]\n')).toBeUndefined();
  });
});

describe('projectInfo', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'hom-project-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fingerprints a repository by its remote, from any subdirectory', () => {
    const repo = join(dir, 'app');
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    execFileSync('git', ['-C', repo, 'remote', 'add', 'origin', 'git@github.com:me/app.git']);
    const top = projectInfo(repo);
    expect(top).toEqual({ id: fingerprint('github.com/me/app'), name: 'app', root: repo, remote: 'github.com/me/app' });
    expect(projectInfo(join(repo, 'src', 'deep')).id).toBe(top.id);
    expect(top.id).toMatch(/^[0-9a-f]{16}$/);
  });

  it('gives a worktree its main checkout\'s name and the same fingerprint', () => {
    const main = join(dir, 'tool');
    mkdirSync(main);
    execFileSync('git', ['init', '-q', main]);
    execFileSync('git', ['-C', main, 'remote', 'add', 'origin', 'https://example.com/tool']);
    // A worktree as git lays it out: a .git file pointing into main/.git/worktrees/wt.
    const wt = join(dir, 'wt1');
    mkdirSync(join(main, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'wt')}\n`);
    const info = projectInfo(wt);
    expect(info.name).toBe('tool');
    expect(info.root).toBe(wt);
    expect(info.id).toBe(projectInfo(main).id);
  });

  it('hashes the repository root when there is no remote, and the directory outside git', () => {
    const repo = join(dir, 'local');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', repo]);
    expect(projectInfo(repo)).toEqual({ id: fingerprint(repo), name: 'local', root: repo });
    const gone = '/nonexistent/elsewhere/project-x';
    expect(projectInfo(gone)).toEqual({ id: fingerprint(gone), name: 'project-x', root: gone });
    // A subdirectory of a foreign directory already seen joins its project.
    expect(projectInfo(`${gone}/cmd/sub`)).toEqual(projectInfo(gone));
  });
});

describe('stack detection', () => {
  it('names languages, tools and frameworks from marker files and manifests', () => {
    const pkg = JSON.stringify({ dependencies: { react: '^19', hono: '4' }, devDependencies: { vitest: '4', typescript: '5' } });
    const terms = stackFromFiles(new Set(['package.json', 'tsconfig.json', 'pnpm-lock.yaml']), [pkg]);
    expect(terms).toEqual(expect.arrayContaining(['javascript', 'node', 'typescript', 'pnpm', 'react', 'hono', 'vitest']));
    expect(terms).not.toContain('vue');
    expect(stackFromFiles(new Set(['go.mod']), ['module x\nrequire github.com/spf13/cobra v1.8.0'])).toEqual(['go', 'cobra']);
    expect(stackFromFiles(new Set())).toEqual([]);
  });

  it('reads a real directory', () => {
    const root = mkdtempSync(join(tmpdir(), 'hom-stack-'));
    try {
      writeFileSync(join(root, 'Cargo.toml'), '[dependencies]\ntokio = "1"\n');
      expect(detectStack(root)).toEqual(['rust', 'cargo', 'tokio']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

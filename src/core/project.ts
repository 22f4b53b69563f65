/**
 * Which project a working directory belongs to: the fingerprint (hash of the
 * git remote, else of the repository root), read from .git without spawning git, so hooks
 * stay fast.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { sha256 } from './ids.js';

export interface ProjectInfo {
  /** 16 hex characters; '' when there is no directory to speak of. */
  fingerprint: string;
  /** Readable name: the repository root's folder name. */
  name: string;
  /** The git top level, or the directory itself outside a repository. */
  root: string;
  remote: string | null;
}

/** Walks up to the directory holding `.git` (a folder, or a file for worktrees). */
function findRepoRoot(start: string): string | null {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function gitDir(root: string): string {
  const dotGit = join(root, '.git');
  try {
    if (statSync(dotGit).isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (pointer) {
        const dir = resolve(root, pointer);
        // A worktree's config lives in the main repository: <main>/.git/worktrees/<name> -> <main>/.git
        const common = join(dir, 'commondir');
        return existsSync(common) ? resolve(dir, readFileSync(common, 'utf8').trim()) : dir;
      }
    }
  } catch {
    // fall through to the plain layout
  }
  return dotGit;
}

/** The URL of `origin` (or the first remote) from .git/config. */
function readRemoteUrl(root: string): string | null {
  let config: string;
  try {
    config = readFileSync(join(gitDir(root), 'config'), 'utf8');
  } catch {
    return null;
  }
  const remotes = [...config.matchAll(/\[remote\s+"([^"]+)"\]([^[]*)/g)].map((m) => ({
    name: m[1],
    url: /^\s*url\s*=\s*(.+?)\s*$/m.exec(m[2] ?? '')?.[1] ?? null,
  }));
  const origin = remotes.find((r) => r.name === 'origin' && r.url) ?? remotes.find((r) => r.url);
  return origin?.url ?? null;
}

/** git@github.com:Org/Repo.git, https://user@github.com/Org/Repo -> github.com/org/repo */
export function normaliseRemote(url: string): string {
  let u = url.trim();
  u = u.replace(/^[a-z+]+:\/\//i, '');
  u = u.replace(/^[^@/]+@/, '');
  u = u.replace(/^([^/:]+):(?!\d+\/)/, '$1/');
  u = u.replace(/^([^/]+):\d+\//, '$1/');
  u = u.replace(/\.git\/?$/, '').replace(/\/+$/, '');
  return u.toLowerCase();
}

export function fingerprintOf(key: string): string {
  return sha256(key).slice(0, 16);
}

/** Whether a value has a fingerprint's form (16 hex characters, as fingerprintOf makes them). */
export const isFingerprint = (value: string): boolean => /^[0-9a-f]{16}$/.test(value);

/**
 * Where the agents put worktrees, each a checkout of one repository: `<repo>/.worktrees/<name>`
 * and `<repo>/worktrees/<name>` (by hand), `<repo>/.claude/worktrees/<name>` (claude --worktree,
 * which removes it when the session ends), `~/.codex/worktrees/<id>/<repo>` (the Codex app).
 * Gives the repository's path, or only its name where the path says no more.
 */
function worktreeBase(dir: string): { path?: string; name: string } | null {
  const codex = /\/\.codex\/worktrees\/[^/]+\/([^/]+)/.exec(dir);
  if (codex?.[1]) return { name: codex[1] };
  const path = /^(.*?)\/(?:\.claude\/)?\.?worktrees\/[^/]+(?:\/.*)?$/.exec(dir)?.[1];
  return path ? { path, name: basename(path) } : null;
}

/** The main repository a linked worktree belongs to, when `.git` is a pointer file. */
function mainRepository(root: string): string | null {
  const dir = gitDir(root);
  return dir !== join(root, '.git') && basename(dir) === '.git' ? dirname(dir) : null;
}

export function detectProject(cwd: string): ProjectInfo {
  if (!cwd) return { fingerprint: '', name: '', root: '', remote: null };
  const dir = resolve(cwd);
  const root = findRepoRoot(dir);
  if (!root) {
    // Outside any repository here: a worktree path still names its repository. A directory
    // this machine does not have (a transcript from another machine, another developer's
    // checkout) has no remote to read: its repository's name is the best identity left, so
    // /Users/a/src/cli and /Users/b/work/cli are one project.
    const worktree = worktreeBase(dir);
    const name = worktree?.name ?? basename(dir);
    const key = existsSync(dir) ? `path:${worktree?.path ?? dir}` : `name:${name}`;
    return { fingerprint: fingerprintOf(key), name, root: dir, remote: null };
  }
  const remote = readRemoteUrl(root);
  const main = mainRepository(root);
  const key = remote ? `remote:${normaliseRemote(remote)}` : `path:${main ?? root}`;
  return { fingerprint: fingerprintOf(key), name: basename(main ?? root), root, remote };
}

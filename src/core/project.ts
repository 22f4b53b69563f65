/**
 * The project a working directory belongs to, found by reading the filesystem only (no
 * `git` process: hooks must start fast). The fingerprint is the first 16 hex characters of
 * sha256 of the normalised git remote URL, else of the repository root (git top level,
 * else the directory itself), so clones and worktrees of one repository share a project.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { sha256 } from './ids.js';

export interface ProjectInfo {
  /** 16 hex characters. */
  id: string;
  /** Readable name: the main checkout's directory name. */
  name: string;
  /** The worktree's top level, or the directory itself outside git. */
  root: string;
  /** The normalised remote URL, when there is one. */
  remote?: string;
}

/** `git@github.com:Owner/Repo.git`, `https://user@github.com/owner/repo/` -> `github.com/owner/repo`. */
export function normaliseRemote(url: string): string {
  let u = url.trim();
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/)(.+)$/.exec(u);
  if (scp && !/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) u = `${scp[1]}/${scp[2]}`;
  u = u
    .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
    .replace(/^[^@/]+@/, '')
    .replace(/:\d+(?=\/)/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '')
    .replace(/\/+$/, '');
  return u.toLowerCase();
}

export const fingerprint = (text: string): string => sha256(text).slice(0, 16);

/** The url of `origin`, else of the first remote, from a git config file's text. */
export function remoteFromConfig(text: string): string | undefined {
  let current: string | undefined;
  const urls = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const section = /^\[\s*remote\s+"([^"]+)"\s*\]$/.exec(line);
    if (section) {
      current = section[1];
      continue;
    }
    if (line.startsWith('[')) {
      current = undefined;
      continue;
    }
    const url = /^url\s*=\s*(.+)$/.exec(line);
    if (current && url && !urls.has(current)) urls.set(current, url[1]?.trim() ?? '');
  }
  return urls.get('origin') ?? urls.values().next().value;
}

interface GitDirs {
  root: string;
  commonDir: string;
}

function readGitFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Walks up from `cwd` to the first directory holding `.git` (a directory, or a worktree's file). */
export function findGitDirs(cwd: string): GitDirs | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    let stat;
    try {
      stat = statSync(dotGit);
    } catch {
      stat = undefined;
    }
    if (stat?.isDirectory()) return { root: dir, commonDir: dotGit };
    if (stat?.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readGitFile(dotGit) ?? '')?.[1]?.trim();
      if (pointer) {
        const gitDir = isAbsolute(pointer) ? pointer : resolve(dir, pointer);
        const common = readGitFile(join(gitDir, 'commondir'));
        return { root: dir, commonDir: common ? resolve(gitDir, common) : gitDir };
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

const cache = new Map<string, ProjectInfo>();

/** The project of a directory. A directory that does not exist here (an imported transcript) hashes its path. */
export function projectInfo(cwd: string): ProjectInfo {
  const key = cwd || '.';
  const hit = cache.get(key);
  if (hit) return hit;
  const abs = resolve(key);
  const git = findGitDirs(abs);
  let info: ProjectInfo;
  if (!git) {
    // A directory from another machine (an imported transcript): a subdirectory of one
    // already seen belongs to that one's project, as it would under git here.
    const parent = existsSync(abs) ? undefined : [...cache.values()].find((p) => !p.remote && abs.startsWith(`${p.root}/`) && !existsSync(p.root));
    info = parent ?? { id: fingerprint(abs), name: basename(abs) || abs, root: abs };
  } else {
    const config = readGitFile(join(git.commonDir, 'config'));
    const url = config ? remoteFromConfig(config) : undefined;
    const remote = url ? normaliseRemote(url) : undefined;
    // A worktree's name is its main checkout's: the directory that holds the shared .git.
    const main = basename(git.commonDir) === '.git' ? dirname(git.commonDir) : git.root;
    info = { id: fingerprint(remote || git.root), name: basename(main) || basename(git.root), root: git.root, ...(remote ? { remote } : {}) };
  }
  cache.set(key, info);
  return info;
}

/** Marker files and what they say about a project's stack. */
const STACK_MARKERS: readonly (readonly [string, readonly string[]])[] = [
  ['package.json', ['javascript', 'node']],
  ['tsconfig.json', ['typescript']],
  ['deno.json', ['deno', 'typescript']],
  ['Cargo.toml', ['rust', 'cargo']],
  ['go.mod', ['go']],
  ['pyproject.toml', ['python']],
  ['requirements.txt', ['python', 'pip']],
  ['setup.py', ['python']],
  ['Pipfile', ['python', 'pipenv']],
  ['uv.lock', ['uv']],
  ['poetry.lock', ['poetry']],
  ['Gemfile', ['ruby', 'bundler']],
  ['pom.xml', ['java', 'maven']],
  ['build.gradle', ['java', 'gradle']],
  ['build.gradle.kts', ['kotlin', 'gradle']],
  ['composer.json', ['php', 'composer']],
  ['mix.exs', ['elixir']],
  ['Package.swift', ['swift']],
  ['pubspec.yaml', ['dart', 'flutter']],
  ['CMakeLists.txt', ['cpp', 'cmake']],
  ['Makefile', ['make']],
  ['Dockerfile', ['docker']],
  ['pnpm-lock.yaml', ['pnpm']],
  ['yarn.lock', ['yarn']],
  ['bun.lockb', ['bun']],
  ['mise.toml', ['mise']],
];

/** Dependencies worth naming in a search query when package.json / pyproject / Gemfile lists them. */
const FRAMEWORKS = [
  'react', 'next', 'vue', 'nuxt', 'svelte', 'angular', 'express', 'fastify', 'hono', 'nestjs', 'vite', 'vitest', 'jest',
  'mocha', 'playwright', 'eslint', 'prisma', 'django', 'flask', 'fastapi', 'pytest', 'pandas', 'numpy', 'torch',
  'rails', 'rspec', 'sinatra', 'spring', 'tokio', 'axum', 'actix', 'serde', 'cobra', 'gin',
];

/** Pure: stack terms from the marker files present and the manifests' text. */
export function stackFromFiles(present: ReadonlySet<string>, manifests: readonly string[] = []): string[] {
  const terms = new Set<string>();
  for (const [file, words] of STACK_MARKERS) if (present.has(file)) words.forEach((w) => terms.add(w));
  const text = manifests.join('\n').toLowerCase();
  for (const fw of FRAMEWORKS) {
    if (new RegExp(`["'\\s/@]${fw}(?:["'/\\s=<>~^:-]|js)`).test(text)) terms.add(fw);
  }
  return [...terms];
}

/** The detected stack of a project root, e.g. ['javascript', 'node', 'typescript', 'vitest']. */
export function detectStack(root: string): string[] {
  const present = new Set(STACK_MARKERS.map(([f]) => f).filter((f) => existsSync(join(root, f))));
  const manifests: string[] = [];
  for (const file of ['package.json', 'pyproject.toml', 'Gemfile', 'Cargo.toml', 'go.mod', 'requirements.txt']) {
    if (!present.has(file)) continue;
    const text = readGitFile(join(root, file));
    if (text) manifests.push(text.slice(0, 64 * 1024));
  }
  return stackFromFiles(present, manifests);
}

/**
 * Where a path really leads, and whether that place may be written: a write is checked on
 * the real path (symlinks resolved), so a link named CLAUDE.md cannot lead into .git or
 * the store.
 */
import { lstatSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { HomunculusError, UsageError } from './errors.js';

const errnoOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;

/**
 * The real path of `path`: every symlink resolved, in its directories and in the file
 * itself. The file, and directories to create for it, may not exist yet: the nearest one
 * that does is resolved. A dangling link is refused: a write would replace the link, a
 * read would find nothing, and neither is what was asked.
 */
export function realTarget(path: string): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  for (let at = absolute; ; at = dirname(at)) {
    try {
      return join(realpathSync(at), ...missing);
    } catch (err) {
      if (errnoOf(err) !== 'ENOENT' || at === dirname(at)) throw unresolvable(path, at, err);
    }
    if (isLink(at)) throw new UsageError(`${at} is a symbolic link to nothing.`, 'Remove the link or point it at a real file.');
    missing.unshift(basename(at));
  }
}

/** The file standing where `at` needs a folder: the nearest ancestor that exists. */
function fileOnTheWay(at: string): string {
  for (let dir = dirname(at); dir !== dirname(dir); dir = dirname(dir)) {
    try {
      statSync(dir);
      return dir;
    } catch {
      // not there, or itself under the file: look further up
    }
  }
  return dirname(at);
}

/** Why `path` cannot be resolved, said with the fix: a file where a folder should be, a folder that may not be read. */
function unresolvable(path: string, at: string, err: unknown): HomunculusError {
  if (errnoOf(err) === 'ENOTDIR') {
    const file = fileOnTheWay(at);
    return new HomunculusError('not_a_folder', `Cannot use ${path}: ${file} is a file, not a folder.`, {
      hint: `Name a path in a folder that exists, or move ${file} aside.`,
      cause: err,
    });
  }
  return new HomunculusError('unresolvable', `Cannot resolve ${path}: ${(err as Error).message}`, {
    hint: 'Check that each folder on the way exists and may be read (ls -ld shows each one).',
    cause: err,
  });
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** The real path of a directory, or undefined when it does not exist. */
export function realDirectory(dir: string): string | undefined {
  try {
    return realpathSync(resolve(dir));
  } catch {
    return undefined;
  }
}

/** True when `child` is `root` or lies below it (both absolute, already real). Pure. */
export function isInside(child: string, root: string): boolean {
  const rel = relative(root, child);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** True when a directory of `path` is a `.git` directory (any case: some file systems ignore it). Pure. */
export function inGitDirectory(path: string): boolean {
  return path
    .split(sep)
    .slice(0, -1)
    .some((segment) => segment.toLowerCase() === '.git');
}

/**
 * Why `real` (a real path) must not be written, or undefined when it may: the store and
 * every file of its home, or anything inside a `.git` directory. `allowed` lists the
 * home's folders a command may write all the same (the exports folder for `export`).
 */
export function protectedReason(real: string, home: string, allowed: readonly string[] = []): string | undefined {
  const realHome = realDirectory(home) ?? resolve(home);
  const inHome = isInside(real, realHome) && !allowed.some((dir) => isInside(real, realDirectory(dir) ?? resolve(dir)));
  if (inHome) return `it is inside the Homunculus home (${realHome}), which only Homunculus writes`;
  if (inGitDirectory(real) || basename(real).toLowerCase() === '.git') return 'it is inside a .git directory';
  return undefined;
}

/** Throws a usage error when `real` is a protected place (see protectedReason). */
export function refuseProtected(real: string, shown: string, home: string, allowed: readonly string[] = []): void {
  const reason = protectedReason(real, home, allowed);
  if (reason) throw new UsageError(`Refusing to write ${shown}: ${reason}.`, 'Choose a file of your project outside .git.');
}

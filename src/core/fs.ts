import { type Stats, appendFileSync, chmodSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { HomunculusError, UsageError } from './errors.js';

/**
 * Creates a directory and its missing parents one level at a time. Node's recursive mkdir
 * never returns under some pseudo file systems (a path below /proc spins forever), so a
 * hook given such a home would hang; here each level fails or succeeds once.
 */
export function ensureDir(dir: string): void {
  const missing: string[] = [];
  let path = resolve(dir);
  for (;;) {
    const kind = statKind(path);
    if (kind === 'dir') break;
    if (kind === 'other') throw dirError(dir, `${path} exists and is not a directory`);
    missing.push(path);
    const parent = dirname(path);
    if (parent === path) break;
    path = parent;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' || statKind(level) !== 'dir') throw dirError(dir, `${level}: ${code ?? String(err)}`, err);
    }
  }
}

function statKind(path: string): 'dir' | 'other' | 'none' {
  try {
    return statSync(path).isDirectory() ? 'dir' : 'other';
  } catch {
    return 'none';
  }
}

/** Whether `path` is an existing directory (following a symlink). */
export const isDirectory = (path: string): boolean => statKind(path) === 'dir';

/** Whether `path` is an existing regular file (following a symlink): not a folder, pipe, socket or device. */
export const isRegularFile = (path: string): boolean => statOf(path)?.isFile() === true;

function dirError(dir: string, why: string, cause?: unknown): HomunculusError {
  return new HomunculusError('directory', `Cannot create the directory ${dir} (${why})`, {
    hint: 'choose a writable directory (for the data home: --home DIR or HOMUNCULUS_HOME)',
    cause,
  });
}

/**
 * Writes through a temporary file and a rename, so readers see the old or the new file, never
 * half. A file that was there keeps its mode; one with other hard links is written in place,
 * as a rename would leave the other names holding the old text. What is there and is not a
 * regular file (a device, a pipe, a socket, a folder) is refused: a rename would replace it.
 */
export function writeFileAtomic(path: string, content: string | Buffer): void {
  ensureDir(dirname(path));
  const before = statOf(path);
  if (before) refuseNotRegular(path, before);
  if (before && before.nlink > 1) {
    denied(path, () => writeFileSync(path, content));
    return;
  }
  const tmp = `${path}.tmp.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  denied(path, () => writeFileSync(tmp, content));
  try {
    if (before) chmodSync(tmp, before.mode & 0o7777);
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** A write the file system refuses (a read-only folder or disk) said as the user's to fix, not as our crash. */
export function denied<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (!['EACCES', 'EPERM', 'EROFS'].includes(code)) throw err;
    throw new HomunculusError('not_writable', `Cannot write ${path}: its folder ${dirname(path)} is not writable (${code}).`, {
      hint: `make the folder writable (chmod u+w ${dirname(path)}), or choose a file elsewhere`,
      cause: err,
    });
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** What a file that is neither regular nor a folder is, in words (a pipe, a socket, a device); undefined for the others. */
export function specialKind(st: Stats): string | undefined {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return undefined;
}

/**
 * The stat of a file the user named for a command to read, checked before it is opened: a
 * missing file or a folder is refused with `hint`, and a pipe, socket or device is refused
 * outright, as reading one could wait forever. Other failures (EACCES) are thrown as they
 * are: the top-level report explains them.
 */
export function regularInput(path: string, hint: string): Stats {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new UsageError(`No such file: ${path}`, hint);
    throw err;
  }
  if (st.isDirectory()) throw new UsageError(`${path} is a folder, not a file.`, hint);
  const kind = specialKind(st);
  if (kind)
    throw new UsageError(
      `${path} is ${kind}, not a regular file: reading it could wait forever.`,
      `Give a regular file; copy what you need into one first. ${hint}`,
    );
  return st;
}

/** Throws when `st`, what is at `path`, is no regular file: writing there would replace /dev/null or block on a pipe. */
function refuseNotRegular(path: string, st: Stats): void {
  if (st.isFile()) return;
  const kind = st.isDirectory() ? 'a folder' : (specialKind(st) ?? 'neither a file nor a folder');
  throw new UsageError(
    `Refusing to write ${path}: it is ${kind}, not a regular file, and writing would replace it.`,
    'Give the path of a regular file (or of a new one), or move what is there aside.',
  );
}

/** Writes only when the content differs; returns whether the file changed. */
export function writeFileIfChanged(path: string, content: string): boolean {
  const before = statOf(path);
  if (before) refuseNotRegular(path, before);
  if (before && readFileSync(path, 'utf8') === content) return false;
  writeFileAtomic(path, content);
  return true;
}

/**
 * Appends `text` to a log, first moving a log over `maxBytes` to `path.1` (one old file is
 * kept). The directory is made only when the append finds it missing: hooks append on
 * every call, and the cheap path is one stat and one append.
 */
export function appendRotated(path: string, text: string, maxBytes: number): void {
  try {
    if (statSync(path).size > maxBytes) renameSync(path, `${path}.1`);
  } catch {
    // No log yet (or another process just moved it).
  }
  try {
    appendFileSync(path, text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    ensureDir(dirname(path));
    appendFileSync(path, text);
  }
}

/** A log and the file appendRotated moved it to, older first; a missing file reads as empty. */
export function readRotated(path: string): string {
  const read = (p: string) => {
    try {
      return readFileSync(p, 'utf8');
    } catch {
      return '';
    }
  };
  return `${read(`${path}.1`)}\n${read(path)}`;
}

/**
 * Takes group and other access away from a file or directory of ours (`mode`: 0o700 for a
 * directory, 0o600 for a file): the home holds every prompt and turn. One we do not own, or
 * that is gone, is left as it is.
 */
export function ownerOnly(path: string, mode: 0o700 | 0o600): void {
  try {
    const st = statSync(path);
    if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) chmodSync(path, mode);
  } catch {
    /* gone, or not ours to change */
  }
}

/**
 * Errors a user can act on. `hint` says how to fix it; `exitCode` follows the CLI
 * convention: 2 for usage errors, 1 for everything else.
 */
export class HomunculusError extends Error {
  readonly hint: string | undefined;
  readonly exitCode: number;
  readonly code: string;

  constructor(code: string, message: string, options: { hint?: string; exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HomunculusError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 1;
  }
}

/** A bad argument, flag or input value: exit code 2. */
export class UsageError extends HomunculusError {
  constructor(message: string, hint?: string) {
    super('usage', message, { hint, exitCode: 2 });
    this.name = 'UsageError';
  }
}

export class NotFoundError extends HomunculusError {
  constructor(what: string, hint?: string) {
    super('not_found', `Not found: ${what}`, { hint, exitCode: 1 });
    this.name = 'NotFoundError';
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}

/** Error codes of a disk that is full: the file system's, a user quota's, SQLite's. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

/** What a file-system failure on a named path means, and its fix: permission, a broken read, a file where a folder was meant. */
interface FileError {
  code: string;
  say: (path: string) => string;
  fix: (path: string) => string;
}

const PERMISSION: FileError = {
  code: 'permission_denied',
  say: (path) => `Permission denied: ${path}`,
  fix: (path) =>
    `Check its permissions (ls -ld '${path}'): this user must be allowed to read it (and write it, where it is written). Change them with chmod, or give another path.`,
};

const FILE_ERRORS: Record<string, FileError> = {
  EACCES: PERMISSION,
  EPERM: PERMISSION,
  EIO: {
    code: 'io_error',
    say: (path) => `Input/output error on ${path}`,
    fix: () =>
      'Give a regular file: a special file (as under /proc or /dev) cannot be read like one. If it is a regular file, its disk may be failing (dmesg says).',
  },
  EISDIR: {
    code: 'is_directory',
    say: (path) => `${path} is a folder where a file was expected`,
    fix: () => 'Give the path of a file, not of a folder.',
  },
  ENOTDIR: {
    code: 'not_directory',
    say: (path) => `${path}: a part of this path is a file, not a folder`,
    fix: () => 'Check the path: every part before the last must be a folder.',
  },
};

/**
 * What an operating-system failure means for the user, with the fix, for whatever command
 * hit it (a full disk mid-sync is no bug to report; nor is a file the user named that
 * cannot be read). Undefined for anything else.
 */
export function explainSystemError(err: unknown): HomunculusError | undefined {
  const e = err as { code?: unknown; path?: unknown } | null;
  if (typeof e?.code !== 'string') return undefined;
  const path = typeof e.path === 'string' ? e.path : undefined;
  if (DISK_FULL_CODES.has(e.code)) {
    return new HomunculusError('disk_full', `The disk is full (${e.code}${path ? ` writing ${path}` : ''}).`, {
      hint: 'Free some space on it (df -h shows what is left; `homunculus doctor` checks it), then run the command again.',
      cause: err,
    });
  }
  const known = Object.hasOwn(FILE_ERRORS, e.code) ? FILE_ERRORS[e.code] : undefined;
  // A permission error without a path (a port, a process) is not about a file: left unexplained.
  const shown = path ?? (e.code === 'EIO' ? 'a file being read' : undefined);
  if (!known || shown === undefined) return undefined;
  return new HomunculusError(known.code, `${known.say(shown)} (${e.code}).`, { hint: known.fix(shown), cause: err });
}

/** A read's error with the path it happened on, when the file system left it out (a stream's says only "read"). */
export function atPath(err: unknown, path: string): unknown {
  const e = err as { syscall?: unknown; path?: unknown } | null;
  if (e?.syscall === 'read' && e.path === undefined) Object.assign(e, { path });
  return err;
}

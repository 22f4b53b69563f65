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

/**
 * What an operating-system failure means for the user, with the fix, for whatever command
 * hit it (a full disk mid-sync is no bug to report). Undefined for anything else.
 */
export function explainSystemError(err: unknown): HomunculusError | undefined {
  const e = err as { code?: unknown; path?: unknown } | null;
  if (typeof e?.code !== 'string' || !DISK_FULL_CODES.has(e.code)) return undefined;
  const where = typeof e.path === 'string' ? ` writing ${e.path}` : '';
  return new HomunculusError('disk_full', `The disk is full (${e.code}${where}).`, {
    hint: 'Free some space on it (df -h shows what is left; `homunculus doctor` checks it), then run the command again.',
    cause: err,
  });
}

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

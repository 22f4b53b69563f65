/** How every surface reports an error to its user: the message, the fix, and the exit code (2 usage, 1 otherwise). */
import { HomunculusError, explainSystemError } from './errors.js';

interface Streams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** Writes the error (as JSON on stdout too when asked) and returns the exit code. */
export function reportError(err: unknown, json: boolean, streams: Streams = process, env: NodeJS.ProcessEnv = process.env): number {
  const known = explainSystemError(err);
  if (known) return reportError(known, json, streams, env);
  if (err instanceof HomunculusError) {
    if (json) streams.stdout.write(`${JSON.stringify({ error: err.message, code: err.code, hint: err.hint ?? null })}\n`);
    streams.stderr.write(`homunculus: ${err.message}\n`);
    if (err.hint) streams.stderr.write(`  fix: ${err.hint}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  if (json) streams.stdout.write(`${JSON.stringify({ error: message, code: 'internal' })}\n`);
  streams.stderr.write(`homunculus: unexpected error: ${message}\n`);
  if (env.HOMUNCULUS_DEBUG && err instanceof Error && err.stack) streams.stderr.write(`${err.stack}\n`);
  else streams.stderr.write('  fix: run it again with HOMUNCULUS_DEBUG=1 for the stack trace, and report it if it persists.\n');
  return 1;
}

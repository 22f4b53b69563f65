/**
 * The observe hook runs after every tool call, so it never opens the database: it writes
 * the finished observation as one small file under spool/ (write to a hidden temporary
 * name, then rename, so a reader sees whole files only). Every other hook, the import and
 * the learning run drain the spool into the observations table; inserts are idempotent, so
 * two drains at once, or a replayed hook, never count an observation twice.
 */
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NewObservation } from '../../store/observations.js';
import { ensureDir, ownerOnly } from '../../core/fs.js';

export const spoolDir = (home: string): string => join(home, 'spool');

let sequence = 0;

/** Writes one observation to the spool; returns the file's path. */
export function spoolObservation(home: string, observation: NewObservation): string {
  const dir = spoolDir(home);
  const name = `${Date.now()}-${process.pid}-${sequence++}-${Math.random().toString(36).slice(2, 8)}.json`;
  const tmp = join(dir, `.${name}.tmp`);
  const line = `${JSON.stringify(observation)}\n`;
  // What a tool call was is the user's alone: owner-only, as the rest of the home.
  try {
    writeFileSync(tmp, line, { mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    ensureDir(dir);
    ownerOnly(home, 0o700);
    ownerOnly(dir, 0o700);
    writeFileSync(tmp, line, { mode: 0o600 });
  }
  const path = join(dir, name);
  renameSync(tmp, path);
  return path;
}

/** How many observations wait in the spool (files; each holds one). */
export function spooledCount(home: string): number {
  try {
    return readdirSync(spoolDir(home)).filter((n) => n.endsWith('.json') && !n.startsWith('.')).length;
  } catch {
    return 0;
  }
}

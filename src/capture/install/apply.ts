/**
 * Writing a plan (plan.ts) safely. The original of each file is kept next to it
 * (`<file>.homunculus-backup`); every file is checked before the first write, and a failure
 * part-way puts back what was already written.
 */
import { accessSync, constants, existsSync, lstatSync, mkdirSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { HomunculusError } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/fs.js';
import { BACKUP_SUFFIX, CREATED_SUFFIX, type FileChange, type Plan } from './plan.js';

/** Where a write really lands: through a symlink (dotfile managers) to its target. */
function realTarget(file: string): string {
  try {
    return lstatSync(file).isSymbolicLink() ? realpathSync(file) : file;
  } catch {
    return file;
  }
}

function assertWritable(file: string): void {
  const probe = existsSync(file) ? file : dirname(file);
  let dir = probe;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    accessSync(existsSync(file) ? file : dir, constants.W_OK);
  } catch (err) {
    throw unwritable(file, err);
  }
}

const containsOurs = (text: string): boolean =>
  /(?:homunculus|\/cli\/bin\.js)["']?\s+(?:hook\s|mcp\b)|# homunculus:begin|# added by homunculus/.test(text);

function unwritable(file: string, err: unknown): HomunculusError {
  return new HomunculusError('settings_unwritable', `Cannot write ${file}: ${(err as Error).message}`, {
    hint: "Nothing was changed. Fix the file's permissions (or its directory's) and run the command again.",
  });
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/**
 * Writes a plan. Every file is checked first and a failure part-way puts back the files
 * already written, so a refusal changes nothing.
 */
export function applyPlan(plan: Plan, kind: 'install' | 'uninstall'): FileChange[] {
  const todo = plan.changes.filter((c) => c.action !== 'unchanged');
  for (const c of todo) assertWritable(c.file);
  const undo: (() => void)[] = [];
  let current = plan.target.hooksFile;
  try {
    for (const c of todo) {
      current = c.file;
      const real = realTarget(c.file);
      if (kind === 'install') {
        if (c.before === undefined) {
          mkdirSync(dirname(c.file), { recursive: true });
          writeFileSync(c.file + CREATED_SUFFIX, '');
          undo.push(() => removeQuietly(c.file + CREATED_SUFFIX));
        } else if (!containsOurs(c.before) || !existsSync(c.file + BACKUP_SUFFIX)) {
          writeFileAtomic(c.file + BACKUP_SUFFIX, c.before);
        }
      }
      undo.push(() => (c.before === undefined ? removeQuietly(real) : writeFileAtomic(real, c.before)));
      if (c.after === undefined) unlinkSync(real);
      else writeFileAtomic(real, c.after);
    }
  } catch (err) {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        // Best effort: the backup file still holds the original.
      }
    }
    throw err instanceof HomunculusError ? err : unwritable(current, err);
  }
  if (kind === 'uninstall') {
    for (const c of todo) {
      if (c.after === undefined) removeQuietly(c.file + CREATED_SUFFIX);
      if (c.action === 'restore') removeQuietly(c.file + BACKUP_SUFFIX);
    }
  }
  return todo;
}

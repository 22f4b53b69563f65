/**
 * Writing a plan (plan.ts) safely. What uninstall needs (the original of each file, whether
 * we created it) goes to the install state under the Homunculus home; every file is checked
 * before the first write, and a failure part-way puts back what was already written.
 */
import { accessSync, constants, existsSync, lstatSync, realpathSync, rmdirSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { HomunculusError } from '../../core/errors.js';
import { writeFileAtomic, ensureDir } from '../../core/fs.js';
import type { FileChange, Plan } from './plan.js';
import type { InstallRecord, InstallState } from './state.js';

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

function removeEmptyDir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // Not empty, or not ours to remove.
  }
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}

/**
 * Records what uninstall needs before a file is first touched: that we created it (and its
 * folder: `made` holds the folders this install made, which its other files share), or its original text.
 */
function remember(state: InstallState, c: FileChange, undo: (() => void)[], made: Set<string>): void {
  const known = state.get(c.file);
  let record: InstallRecord | undefined;
  if (c.before === undefined) {
    const dir = dirname(c.file);
    if (!existsSync(dir)) made.add(dir);
    ensureDir(dir);
    record = { file: c.file, created: true, ...(made.has(dir) ? { dir_created: true } : {}) };
  } else if (!known || !containsOurs(c.before)) {
    // Ours was removed by hand since: the text now is the original to give back.
    record = { file: c.file, created: false, original: c.before };
  }
  if (!record) return;
  try {
    state.put(record);
  } catch (err) {
    throw new HomunculusError('home_unwritable', `Cannot write ${state.dir}: ${(err as Error).message}`, {
      hint: 'Nothing was changed. Make the Homunculus home writable (or choose another with --home) and run the command again.',
    });
  }
  undo.push(() => (known ? state.put(known) : state.remove(c.file)));
}

/**
 * Writes a plan. Every file is checked first and a failure part-way puts back the files
 * already written, so a refusal changes nothing.
 */
export function applyPlan(plan: Plan, kind: 'install' | 'uninstall', state: InstallState): FileChange[] {
  const todo = plan.changes.filter((c) => c.action !== 'unchanged');
  for (const c of todo) assertWritable(c.file);
  const undo: (() => void)[] = [];
  // Folders init made (a project's .codex/): made by this install, or emptied by this uninstall.
  const made = new Set<string>();
  let current = plan.target.hooksFile;
  try {
    for (const c of todo) {
      current = c.file;
      const real = realTarget(c.file);
      if (kind === 'install') remember(state, c, undo, made);
      undo.push(() => (c.before === undefined ? removeQuietly(real) : writeFileAtomic(real, c.before)));
      if (c.after === undefined) {
        unlinkSync(real);
        if (state.get(c.file)?.dir_created) made.add(dirname(real));
      } else writeFileAtomic(real, c.after);
    }
  } catch (err) {
    for (const step of undo.reverse()) {
      try {
        step();
      } catch {
        // Best effort: the install state still holds the original.
      }
    }
    throw err instanceof HomunculusError ? err : unwritable(current, err);
  }
  // Once nothing of ours is left in a file, nothing is left to undo; a later install records afresh.
  // A file two installs share (Codex's config.toml trusts user and project hooks) keeps its record.
  if (kind === 'uninstall') for (const c of todo) if (c.after === undefined || !containsOurs(c.after)) state.remove(c.file);
  // A folder init made goes too once nothing else is in it; one the user had stays, even empty.
  if (kind === 'uninstall') for (const dir of made) removeEmptyDir(dir);
  return todo;
}

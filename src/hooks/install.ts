/**
 * `init --claude | --project | --codex | --gemini | --cursor` and `uninstall`: planning the
 * edits to an agent's settings files, showing them as a diff, and writing them safely.
 * The original of each file is kept next to it (`<file>.homunculus-backup`); uninstall
 * removes exactly what was added and, when nothing else changed since, restores the
 * original bytes (formatting included).
 */
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { formatDiff } from '../core/diff.js';
import { HomunculusError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs.js';
import { commandWords } from './entry.js';
import { type Json, mcpEntry, mergeCodexToml, mergeHooks, mergeMcp, removeCodexToml, removeHooks, removeMcp } from './settings.js';
import type { Target } from './targets.js';

export const BACKUP_SUFFIX = '.homunculus-backup';
/** Marks a file that did not exist before install: uninstall may delete it when only our entries were in it. */
export const CREATED_SUFFIX = '.homunculus-created';

export type FileAction = 'create' | 'update' | 'unchanged' | 'remove' | 'restore';

export interface FileChange {
  file: string;
  action: FileAction;
  before: string | undefined;
  after: string | undefined;
  diff: string;
}

export interface Plan {
  target: Target;
  changes: FileChange[];
  warnings: string[];
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HomunculusError('settings_unreadable', `Cannot read ${file}: ${(err as Error).message}`, {
      hint: 'Check its permissions; nothing was changed.',
    });
  }
}

function parseJsonFile(file: string, text: string | undefined): Json {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new HomunculusError('settings_invalid', `${file} is not valid JSON: ${(err as Error).message}`, {
      hint: 'Nothing was changed. Fix the syntax (comments are not allowed) or move the file aside, then run the command again.',
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new HomunculusError('settings_invalid', `${file} must hold a JSON object.`, {
      hint: 'Nothing was changed. Fix the file or move it aside.',
    });
  }
  return value as Json;
}

/** Serialises like the original: same indentation, same final newline. */
function serialise(value: Json, original: string | undefined): string {
  const indent = /\n([ \t]+)"/.exec(original ?? '')?.[1] ?? '  ';
  const trailing = original === undefined || original === '' || original.endsWith('\n') ? '\n' : '';
  return `${JSON.stringify(value, null, indent)}${trailing}`;
}

const isEmptySettings = (value: Json): boolean =>
  Object.keys(value).filter((k) => !(k === 'version' && value.version === 1) && !(k === 'hooks' && JSON.stringify(value.hooks) === '{}'))
    .length === 0;

function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(sortKeys(JSON.parse(a))) === JSON.stringify(sortKeys(JSON.parse(b)));
  } catch {
    return a.trim() === b.trim();
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Json)[k])]),
    );
  return v;
}

function change(file: string, before: string | undefined, after: string | undefined): FileChange {
  let action: FileAction;
  if (after === undefined) action = before === undefined ? 'unchanged' : 'remove';
  else if (before === undefined) action = 'create';
  else action = before === after ? 'unchanged' : 'update';
  return { file, action, before, after, diff: action === 'unchanged' ? '' : formatDiff(before ?? '', after ?? '', file) };
}

type Edit = { json: (value: Json, file: string) => Json } | { text: (text: string) => string };

/** Applies edits to each file in memory (files shared by hooks and MCP get both). */
function planEdits(edits: Map<string, Edit[]>, uninstall: boolean): FileChange[] {
  const out: FileChange[] = [];
  for (const [file, list] of edits) {
    const before = readText(file);
    let after: string | undefined;
    if (list.every((e) => 'text' in e)) {
      after = list.reduce((t, e) => ('text' in e ? e.text(t) : t), before ?? '');
      if (before === undefined && after === '') after = undefined;
    } else {
      const value = list.reduce((v, e) => ('json' in e ? e.json(v, file) : v), parseJsonFile(file, before));
      after = serialise(value, before);
      if (before === undefined && uninstall) after = undefined;
      else if (uninstall && isEmptySettings(value) && existsSync(file + CREATED_SUFFIX)) after = undefined;
    }
    if (uninstall && after !== undefined && before !== undefined) {
      // Nothing else changed since install: give back the original bytes.
      const backup = readText(file + BACKUP_SUFFIX);
      if (backup !== undefined && sameJson(after, backup)) after = backup;
    }
    // An edit that changes nothing leaves the file's bytes (and formatting) alone.
    if (after !== undefined && before !== undefined && sameJson(after, before)) after = before;
    out.push(change(file, before, after));
  }
  return out;
}

export function planInstall(target: Target, prefix: string, options: { mcp?: boolean } = {}): Plan {
  const words = commandWords(prefix);
  const edits = new Map<string, Edit[]>();
  const add = (file: string, edit: Edit): void => void edits.set(file, [...(edits.get(file) ?? []), edit]);
  const warnings: string[] = [];
  add(target.hooksFile, { json: (v, f) => mergeHooks(v, target, prefix, f) });
  if (options.mcp !== false) {
    if (target.mcpFormat === 'codex-toml') add(target.mcpFile, { text: (t) => mergeCodexToml(t, words) });
    else {
      const entry = mcpEntry(words, target.mcpFormat);
      add(target.mcpFile, {
        json: (v, f) => {
          const r = mergeMcp(v, entry, f);
          if (r.conflict) warnings.push(`${f} already has an MCP server named "homunculus" that is not this one; left as it is.`);
          return r.settings;
        },
      });
    }
  }
  return { target, changes: planEdits(edits, false), warnings };
}

export function planUninstall(target: Target): Plan {
  const edits = new Map<string, Edit[]>();
  const add = (file: string, edit: Edit): void => void edits.set(file, [...(edits.get(file) ?? []), edit]);
  add(target.hooksFile, { json: (v) => removeHooks(v, target).settings });
  if (target.mcpFormat === 'codex-toml') add(target.mcpFile, { text: (t) => removeCodexToml(t) });
  else add(target.mcpFile, { json: (v) => removeMcp(v).settings });
  const changes = planEdits(edits, true).map((c) =>
    c.action === 'update' && c.after === readText(c.file + BACKUP_SUFFIX) ? { ...c, action: 'restore' as const } : c,
  );
  return { target, changes, warnings: [] };
}

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

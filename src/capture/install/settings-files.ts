/** The clients' settings files, read leniently: an object, or {} for a file missing, broken or not an object. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { type Obj, isObj } from '../../core/fields.js';
import { parseJsonc } from './jsonc.js';

export function readObj(file: string, format: 'json' | 'toml' = 'json'): Obj {
  try {
    const text = readFileSync(file, 'utf8');
    const value: unknown = format === 'json' ? parseJsonc(text) : parse(text);
    return isObj(value) ? value : {};
  } catch {
    return {};
  }
}

export const sub = (o: Obj, key: string): Obj => (isObj(o[key]) ? o[key] : {});

/** A project's own Claude Code settings, most specific first: they override the user's. */
export const claudeProjectSettings = (cwd: string): string[] => [
  join(cwd, '.claude', 'settings.local.json'),
  join(cwd, '.claude', 'settings.json'),
];

/** The first of `files` (most specific first) where `pick` reads a boolean: the file that decides, and its value. */
export function decidingSetting(files: readonly string[], pick: (settings: Obj) => unknown): { file: string; value: boolean } | undefined {
  for (const file of files) {
    const value = pick(readObj(file));
    if (typeof value === 'boolean') return { file, value };
  }
  return undefined;
}

/**
 * Agents' settings files as JSON (comments and trailing commas allowed, as Gemini CLI allows
 * them): read without surprises, written back in the original's style with its comments,
 * compared by content. Every refusal says that nothing was changed.
 */
import { readFileSync } from 'node:fs';
import { HomunculusError } from '../../core/errors.js';
import { type Obj, isObj } from '../../core/fields.js';
import { editJsonc, isStrictJson, parseJsonc } from './jsonc.js';

export type Json = Obj;

/** A settings file whose shape we cannot merge into. */
export function invalid(file: string, what: string): HomunculusError {
  return new HomunculusError('settings_invalid', `${file}: ${what}`, {
    hint: 'Nothing was changed. Fix the file by hand (or move it aside) and run the command again.',
  });
}

/** The file's text, or undefined when it does not exist. */
export function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new HomunculusError('settings_unreadable', `Cannot read ${file}: ${(err as Error).message}`, {
      hint: 'Check its permissions; nothing was changed.',
    });
  }
}

export function parseJsonFile(file: string, text: string | undefined): Json {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = parseJsonc(text);
  } catch (err) {
    throw new HomunculusError('settings_invalid', `${file} is not valid JSON: ${(err as Error).message}`, {
      hint: 'Nothing was changed. Fix the syntax or move the file aside, then run the command again.',
    });
  }
  if (!isObj(value)) {
    throw new HomunculusError('settings_invalid', `${file} must hold a JSON object.`, {
      hint: 'Nothing was changed. Fix the file or move it aside.',
    });
  }
  return value;
}

/** Serialises like the original: same indentation, same final newline, and its comments kept. */
export function serialise(value: Json, original: string | undefined): string {
  const indent = /\n([ \t]+)"/.exec(original ?? '')?.[1] ?? '  ';
  if (original !== undefined && original.trim() !== '' && !isStrictJson(original)) return editJsonc(original, value, indent);
  const trailing = original === undefined || original === '' || original.endsWith('\n') ? '\n' : '';
  return `${JSON.stringify(value, null, indent)}${trailing}`;
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

/** Same JSON whatever the key order and formatting (plain text comparison for anything else). */
export function sameJson(a: string, b: string): boolean {
  try {
    return JSON.stringify(sortKeys(parseJsonc(a))) === JSON.stringify(sortKeys(parseJsonc(b)));
  } catch {
    return a.trim() === b.trim();
  }
}

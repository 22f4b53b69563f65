/**
 * Prompts for a model live in files (the package's prompts/ folder), not in the source: they
 * are read and reviewed as text. Read once per process.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { HomunculusError } from './errors.js';

const cache = new Map<string, string>();

/** The text of prompts/<name>.md, from the package root (two folders above this module, in src/ or dist/). */
export function readPrompt(name: string): string {
  const known = cache.get(name);
  if (known !== undefined) return known;
  const path = fileURLToPath(new URL(`../../prompts/${name}.md`, import.meta.url));
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    throw new HomunculusError('internal', `The prompt file ${path} is missing.`, {
      hint: 'Reinstall the package: its prompts/ folder is incomplete.',
    });
  }
  cache.set(name, text);
  return text;
}

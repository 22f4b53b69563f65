/**
 * config.json under the home directory. Each capability reads its own section and
 * validates it; this module only guarantees a readable JSON object.
 */
import { existsSync, readFileSync } from 'node:fs';
import { HomunculusError } from './errors.js';
import { isObj } from './fields.js';

export type Config = Record<string, unknown>;

export function loadConfig(path: string): Config {
  if (!existsSync(path)) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new HomunculusError('config', `Cannot read ${path}: ${(err as Error).message}`, { hint: 'Check the file permissions.' });
  }
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new HomunculusError('config', `${path} is not valid JSON: ${(err as Error).message}`, {
      hint: 'Fix the syntax (a JSON object such as {"embedding": {"provider": "use-lite"}}) or delete the file to use defaults.',
    });
  }
  if (!isObj(value)) {
    throw new HomunculusError('config', `${path} must hold a JSON object, not ${Array.isArray(value) ? 'an array' : typeof value}.`, {
      hint: 'Wrap the settings in { ... }, or delete the file to use defaults.',
    });
  }
  return value as Config;
}

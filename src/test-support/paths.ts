import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

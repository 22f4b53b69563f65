/** How agents and background jobs run this CLI: the built entry point of this installation. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder that holds this installation's package.json. Found by walking up, since the asking
 * module sits at different depths: dist/core/, or a chunk of the hooks' bundle in dist/hooks/bundle/.
 */
export function installRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) return dirname(dirname(from));
    dir = up;
  }
  return dir;
}

let entry: string | undefined;

/** dist/cli/bin.js of this installation. */
export function cliEntry(): string {
  entry ??= join(installRoot(), 'dist', 'cli', 'bin.js');
  return entry;
}

/** Hook failures go to $HOMUNCULUS_HOME/logs/hooks.log (HomePaths.hookLog); logging itself never throws. */
import { appendFileSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDir } from '../core/fs.js';

const MAX_LOG_BYTES = 1024 * 1024;

export function logHook(path: string, line: string, err?: unknown): void {
  try {
    ensureDir(dirname(path));
    try {
      if (statSync(path).size > MAX_LOG_BYTES) renameSync(path, `${path}.1`);
    } catch {
      // No log yet.
    }
    const stack =
      err instanceof Error && err.stack
        ? `\n  ${err.stack
            .split('\n')
            .slice(1, 6)
            .map((l) => l.trim())
            .join('\n  ')}`
        : '';
    const message = err === undefined ? '' : `: ${err instanceof Error ? err.message : String(err)}`;
    appendFileSync(path, `${new Date().toISOString()} ${line}${message}${stack}\n`);
  } catch {
    // An unwritable home must not break the agent: the failure is dropped.
  }
}

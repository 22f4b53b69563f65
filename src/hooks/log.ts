/** Hook failures go to $HOMUNCULUS_HOME/logs/hooks.log (HomePaths.hookLog); logging itself never throws. */
import { appendRotated } from '../core/fs.js';

const MAX_LOG_BYTES = 1024 * 1024;

export function logHook(path: string, line: string, err?: unknown): void {
  try {
    const stack =
      err instanceof Error && err.stack
        ? `\n  ${err.stack
            .split('\n')
            .slice(1, 6)
            .map((l) => l.trim())
            .join('\n  ')}`
        : '';
    const message = err === undefined ? '' : `: ${err instanceof Error ? err.message : String(err)}`;
    appendRotated(path, `${new Date().toISOString()} ${line}${message}${stack}\n`, MAX_LOG_BYTES);
  } catch {
    // An unwritable home must not break the agent: the failure is dropped.
  }
}

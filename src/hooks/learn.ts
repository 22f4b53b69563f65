/**
 * Starting the learning run after a stop: detached, in the background, with
 * HOMUNCULUS_OBSERVER=1 so its own agent calls are not observed, under the `learn` lock so
 * overlapping stops never run two at once. The lock is handed to the child: its exit (a
 * dead pid) frees the lock with no cooperation from the `learn` command.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPath, tryLock } from '../core/lock.js';
import type { HomePaths } from '../core/paths.js';
import { CLI_ENTRY } from './entry.js';

export type LearnStart = 'started' | 'running' | 'throttled' | 'nothing-pending' | 'disabled';

/** Stops at the end of a turn start a run at most this often; a session's end always may. */
export const LEARN_THROTTLE_MS = 5 * 60 * 1000;

export interface LearnOptions {
  env: NodeJS.ProcessEnv;
  pending: number;
  /** The session ended (SessionEnd), rather than a turn (Stop). */
  ending: boolean;
  now: Date;
}

function recentlyStarted(marker: string, now: Date): boolean {
  try {
    return now.getTime() - statSync(marker).mtimeMs < LEARN_THROTTLE_MS;
  } catch {
    return false;
  }
}

export function startLearning(paths: HomePaths, options: LearnOptions): LearnStart {
  if (options.env.HOMUNCULUS_NO_LEARN === '1') return 'disabled';
  if (options.pending === 0) return 'nothing-pending';
  const marker = join(paths.locks, 'learn.last');
  if (!options.ending && recentlyStarted(marker, options.now)) return 'throttled';
  const lock = tryLock(lockPath(paths.locks, 'learn'), { purpose: 'learn' });
  if (!lock) return 'running';
  let log: number | undefined;
  try {
    log = openSync(paths.observerLog, 'a');
    const child = spawn(process.execPath, [CLI_ENTRY, 'learn', '--home', paths.home], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...options.env, HOMUNCULUS_OBSERVER: '1' },
    });
    child.on('error', () => lock.release());
    if (child.pid === undefined) {
      lock.release();
      return 'running';
    }
    lock.transfer(child.pid);
    child.unref();
    writeFileSync(marker, `${child.pid}\n`);
    utimesSync(marker, options.now, options.now);
    return 'started';
  } catch (err) {
    lock.release();
    throw err;
  } finally {
    if (log !== undefined) closeSync(log);
  }
}

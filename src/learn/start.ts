/**
 * Starting the learning run after a stop: detached, in the background, with
 * HOMUNCULUS_OBSERVER=1 so its own agent calls are not observed. The run takes the
 * observer lock itself; a stop that finds a live holder starts nothing (that run loops
 * until no observation is left), and of two stops racing, the second run finds the lock
 * taken and exits at once. So two runs never work at the same time.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cliEntry } from '../core/entry.js';
import { lockHolder } from '../core/lock.js';
import type { Store } from '../store/store.js';
import { ensureDir } from '../core/fs.js';

type LearnStart = 'started' | 'running' | 'throttled' | 'nothing-pending' | 'disabled';

/** Stops at the end of a turn start a run at most this often; a session's end always may. */
const LEARN_THROTTLE_MS = 5 * 60 * 1000;

interface LearnStartOptions {
  env: NodeJS.ProcessEnv;
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

export async function startLearning(store: Store, options: LearnStartOptions): Promise<LearnStart> {
  const paths = store.paths;
  if (options.env.HOMUNCULUS_NO_LEARN === '1') return 'disabled';
  if (store.observations.count({ pendingOnly: true }) === 0) return 'nothing-pending';
  const marker = join(paths.locks, 'learn.last');
  if (!options.ending && recentlyStarted(marker, options.now)) return 'throttled';
  // The learning modules load only when a run may start (most stops end a turn and are throttled).
  const { LOCK_STALE_MS, lockPath } = await import('./run.js');
  if (lockHolder(lockPath(store), { staleMs: LOCK_STALE_MS }) !== undefined) return 'running';
  ensureDir(dirname(paths.observerLog));
  const log = openSync(paths.observerLog, 'a');
  try {
    const child = spawn(process.execPath, [cliEntry(), 'learn', '--home', paths.home], {
      detached: true,
      stdio: ['ignore', log, log],
      env: { ...options.env, HOMUNCULUS_OBSERVER: '1' },
    });
    child.on('error', () => undefined);
    child.unref();
    ensureDir(paths.locks);
    writeFileSync(marker, `${child.pid ?? ''}\n`);
    utimesSync(marker, options.now, options.now);
    return 'started';
  } finally {
    closeSync(log);
  }
}

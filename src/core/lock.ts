/**
 * Pid lock files: one holder at a time for a background job (the learning run). The file
 * holds the holder's pid; a lock whose pid is dead, or that is older than `staleMs`, is
 * reclaimed. The lock can be handed to a child process, so a detached job needs no
 * cooperation: once it exits, its dead pid frees the lock.
 */
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface LockInfo {
  pid: number;
  started_at: string;
  purpose?: string;
}

export interface Lock {
  readonly path: string;
  /** Hands the lock to another process (e.g. the detached child that does the work). */
  transfer(pid: number): void;
  /** Removes the lock file if it still names this holder and was not transferred. */
  release(): void;
}

export interface LockOptions {
  /** A lock older than this is reclaimed even if its pid looks alive (pid reuse). Default 2 hours. */
  staleMs?: number;
  purpose?: string;
  now?: () => Date;
  /** Whether a pid is alive; injectable for tests. */
  isAlive?: (pid: number) => boolean;
}

export const DEFAULT_STALE_MS = 2 * 60 * 60 * 1000;

export function lockPath(locksDir: string, name: string): string {
  return join(locksDir, `${name}.lock`);
}

export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(path: string): LockInfo | undefined {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
    if (typeof value.pid !== 'number') return undefined;
    return { pid: value.pid, started_at: String(value.started_at ?? ''), purpose: value.purpose };
  } catch {
    return undefined;
  }
}

function isStale(path: string, info: LockInfo | undefined, options: Required<Pick<LockOptions, 'staleMs' | 'now' | 'isAlive'>>): boolean {
  const now = options.now().getTime();
  let age: number;
  try {
    age = now - statSync(path).mtimeMs;
  } catch {
    return true;
  }
  // An unreadable lock may be one being written this instant: give it a moment.
  if (!info) return age > 5_000;
  if (info.pid === process.pid) return false;
  return !options.isAlive(info.pid) || age > options.staleMs;
}

function writeLock(path: string, pid: number, purpose: string | undefined, now: Date, flag: 'wx' | 'w'): void {
  writeFileSync(path, `${JSON.stringify({ pid, started_at: now.toISOString(), purpose })}\n`, { flag });
}

/**
 * Takes the lock, or returns undefined when a live process holds it. A lock this process
 * already holds is returned again (re-entrant).
 */
export function tryLock(path: string, options: LockOptions = {}): Lock | undefined {
  const opts = { staleMs: options.staleMs ?? DEFAULT_STALE_MS, now: options.now ?? (() => new Date()), isAlive: options.isAlive ?? isProcessAlive };
  mkdirSync(dirname(path), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeLock(path, process.pid, options.purpose, opts.now(), 'wx');
      return handle(path, process.pid);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const info = readLock(path);
    if (info?.pid === process.pid) return handle(path, process.pid);
    if (!isStale(path, info, opts)) return undefined;
    // Move the stale file aside under a unique name: of two reclaimers, one rename wins.
    const aside = `${path}.stale.${process.pid}.${Date.now()}`;
    try {
      renameSync(path, aside);
      unlinkSync(aside);
    } catch {
      // Someone else reclaimed it first; the next attempt decides.
    }
  }
  return undefined;
}

function handle(path: string, initialPid: number): Lock {
  let holder = initialPid;
  return {
    path,
    transfer(pid: number) {
      const info = readLock(path);
      if (info?.pid !== holder) return;
      writeLock(path, pid, info.purpose, new Date(), 'w');
      holder = pid;
    },
    release() {
      // After a transfer the lock belongs to the other process: its exit frees it.
      if (holder !== initialPid || readLock(path)?.pid !== holder) return;
      try {
        unlinkSync(path);
      } catch {
        // Already gone.
      }
    },
  };
}

/** Runs `fn` under the lock; returns undefined without running it when the lock is held. */
export async function withLock<T>(path: string, fn: () => T | Promise<T>, options: LockOptions = {}): Promise<{ ran: true; value: T } | { ran: false }> {
  const lock = tryLock(path, options);
  if (!lock) return { ran: false };
  try {
    return { ran: true, value: await fn() };
  } finally {
    lock.release();
  }
}

/**
 * A PID lock file (the graph GC lock, the observer.lock): one holder at a time.
 * The file holds "<pid> <iso time>". A lock whose process is gone, or that has not been
 * refreshed for `staleMs`, is reclaimed. Holders of long jobs call `release.refresh()`.
 */
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { denied, ensureDir } from './fs.js';

interface LockOptions {
  /** After this long without a refresh, a lock counts as abandoned even if its PID is alive. */
  staleMs: number;
}

type Release = (() => void) & {
  /** Marks the lock as still in use (restarts its stale clock). */
  refresh(): void;
};

/** How long an empty lock file counts as being written rather than abandoned. */
const EMPTY_GRACE_MS = 2000;

/**
 * Creates the lock with its pid already in it: written beside it, then linked into place (which
 * fails when the lock exists). A process killed between creating an empty lock and writing its
 * pid had left a lock that looked held to the next run.
 */
function tryCreate(path: string): boolean {
  const draft = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  denied(path, () => writeFileSync(draft, `${process.pid} ${new Date().toISOString()}\n`, { flag: 'wx' }));
  try {
    linkSync(draft, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(draft);
  }
}

export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(path: string): { content: string; pid: number; mtimeMs: number } | undefined {
  try {
    const content = readFileSync(path, 'utf8');
    return { content, pid: Number.parseInt(content, 10), mtimeMs: statSync(path).mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Moves a stale lock aside; gives it back if someone else reclaimed it first. */
function reclaim(path: string, staleContent: string): boolean {
  const aside = `${path}.stale.${process.pid}.${Math.random().toString(36).slice(2, 8)}`;
  try {
    renameSync(path, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
  let moved = '';
  try {
    moved = readFileSync(aside, 'utf8');
  } catch {
    /* vanished: nothing to give back */
  }
  if (moved && moved !== staleContent) {
    // We moved a fresh lock taken by a faster reclaimer: restore it unless a third party holds the path.
    try {
      renameSync(aside, path);
    } catch {
      /* the path is taken again; the fresh holder keeps running */
    }
    return false;
  }
  try {
    unlinkSync(aside);
  } catch {
    /* already gone */
  }
  return true;
}

/** The pid of a live holder of the lock (refreshed within `staleMs`), or undefined when it is free or reclaimable. */
export function lockHolder(path: string, options: LockOptions): number | undefined {
  const held = readLock(path);
  if (!held) return undefined;
  return processAlive(held.pid) && Date.now() - held.mtimeMs < options.staleMs ? held.pid : undefined;
}

/** Takes the lock, or returns undefined when a live holder has it. */
export function acquireLock(path: string, options: LockOptions): Release | undefined {
  ensureDir(dirname(path));
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(path)) return releaser(path);
    const held = readLock(path);
    if (!held) continue;
    const alive = processAlive(held.pid);
    const age = Date.now() - held.mtimeMs;
    if (alive && age < options.staleMs) return undefined;
    // Empty: its creator is between creating it and writing its pid (held, unless that creator died there).
    if (held.content === '' && age < Math.min(options.staleMs, EMPTY_GRACE_MS)) return undefined;
    if (!reclaim(path, held.content)) return undefined;
  }
  return undefined;
}

function releaser(path: string): Release {
  const mine = readLock(path)?.content;
  let released = false;
  const release = (() => {
    if (released) return;
    released = true;
    // Only remove the file if it is still ours (a stale reclaim may have replaced it).
    if (readLock(path)?.content === mine) {
      try {
        unlinkSync(path);
      } catch {
        /* already gone */
      }
    }
  }) as Release;
  release.refresh = () => {
    if (released) return;
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      /* the lock vanished; the caller's work still completes in its own transactions */
    }
  };
  return release;
}

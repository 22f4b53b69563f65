/**
 * The hook's last line of defence. The deadline timer in main.ts needs the event loop; code
 * stuck in a synchronous call (a file system call that never returns, a runaway loop) never
 * lets it fire. The watchdog lives outside the main thread: at its deadline it ends the
 * process and writes the agent's empty answer itself, whatever the main thread is doing.
 * Whoever answers first claims the answer, so the agent never gets two.
 *
 * On Linux it is a small shell that waits on a pipe from us (a Node worker thread costs
 * about 35 ms of CPU and 12 MiB per hook; a shell a few): the pipe closes when we claim or
 * die, so the shell never outlives us and never signals a reused pid. Elsewhere (no
 * coreutils `timeout` to rely on) it is a worker thread.
 */
import { spawn } from 'node:child_process';
import { Worker } from 'node:worker_threads';

export interface Watchdog {
  /** True when the caller may write its answer (the watchdog has not, and now never will). */
  claim(): boolean;
}

/** A line the watchdog appends to a log when it answers (the main thread never got to write its own). */
export interface WatchdogRecord {
  path: string;
  line: string;
}

// `timeout` ends `cat` at the deadline (exit 124); `cat` also ends when our end of the pipe
// closes (exit 0), and then the shell leaves quietly.
const SHELL_SOURCE =
  'timeout "$1" cat >/dev/null; [ $? -eq 124 ] || exit 0; kill -9 "$2" 2>/dev/null && printf %s "$3"; [ -z "$4" ] || { mkdir -p -- "${4%/*}"; printf \'%s\\n\' "$5" >>"$4"; } 2>/dev/null';

function shellWatchdog(ms: number, answer: string, record?: WatchdogRecord): Watchdog {
  // Whole seconds, rounded down so it never answers later than asked: busybox's timeout takes no fractions.
  const seconds = String(Math.max(1, Math.floor(ms / 1000)));
  const args = [seconds, String(process.pid), answer, record?.path ?? '', record?.line ?? ''];
  const child = spawn('/bin/sh', ['-c', SHELL_SOURCE, 'homunculus-watchdog', ...args], {
    stdio: ['pipe', 'inherit', 'ignore'],
    // Its own process group, so a claim ends the shell, `timeout` and `cat` in one signal.
    detached: true,
  });
  child.on('error', () => undefined);
  child.stdin.on('error', () => undefined);
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  let claimed = false;
  return {
    claim: () => {
      if (claimed) return false;
      claimed = true;
      // Killed before we write: if the shell had already killed us we would not be here.
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      child.stdin.destroy();
      return true;
    },
  };
}

// CommonJS source for the worker: fs and its own timer only.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { appendFileSync, mkdirSync, writeSync } = require('node:fs');
const { dirname } = require('node:path');
const flag = new Int32Array(workerData.flag);
setTimeout(() => {
  if (Atomics.compareExchange(flag, 0, 0, 1) !== 0) return;
  try { if (workerData.answer) writeSync(1, workerData.answer); } catch {}
  try { if (workerData.record) mkdirSync(dirname(workerData.record.path), { recursive: true }), appendFileSync(workerData.record.path, workerData.record.line + '\\n'); } catch {}
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.ms);
`;

function threadWatchdog(ms: number, answer: string, record?: WatchdogRecord): Watchdog {
  const flag = new SharedArrayBuffer(4);
  const view = new Int32Array(flag);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { flag, ms, answer, pid: process.pid, record } });
  worker.unref();
  return { claim: () => Atomics.compareExchange(view, 0, 0, 1) === 0 };
}

/** Starts a watchdog that answers `answer` (and appends `record`) and ends the process after `ms` unless claimed first. */
export function startWatchdog(ms: number, answer: string, record?: WatchdogRecord): Watchdog {
  return process.platform === 'linux' ? shellWatchdog(ms, answer, record) : threadWatchdog(ms, answer, record);
}

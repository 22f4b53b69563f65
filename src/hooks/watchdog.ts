/**
 * The hook's last line of defence. The deadline timer in main.ts needs the event loop; code
 * stuck in a synchronous call (a file system call that never returns, a runaway loop) never
 * lets it fire. This watchdog runs on its own thread: at its deadline it writes the agent's
 * empty answer to stdout itself and ends the process, whatever the main thread is doing.
 * Whoever answers first claims the answer through a shared flag, so the agent never gets two.
 */
import { Worker } from 'node:worker_threads';

// CommonJS source for the worker: it needs nothing but fs and its own timer.
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
const flag = new Int32Array(workerData.flag);
setTimeout(() => {
  if (Atomics.compareExchange(flag, 0, 0, 1) !== 0) return;
  try { if (workerData.answer) writeSync(1, workerData.answer); } catch {}
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.ms);
`;

export interface Watchdog {
  /** True when the caller may write its answer (the watchdog has not, and now never will). */
  claim(): boolean;
}

/** Starts a watchdog that answers `answer` and ends the process after `ms` unless claimed first. */
export function startWatchdog(ms: number, answer: string): Watchdog {
  const flag = new SharedArrayBuffer(4);
  const view = new Int32Array(flag);
  const worker = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { flag, ms, answer, pid: process.pid } });
  worker.unref();
  return { claim: () => Atomics.compareExchange(view, 0, 0, 1) === 0 };
}

/**
 * What a running gateway says about itself, for `agent status`: its port, process id and
 * start time in the home (gateway.json), removed when it stops. A file left by a process that
 * died is recognised by its process id and reported as not running.
 */
import { readFileSync, rmSync } from 'node:fs';
import { writeFileAtomic } from '../core/fs.js';

export interface GatewayState {
  pid: number;
  port: number;
  url: string;
  started: string;
}

export function writeGatewayState(path: string, state: GatewayState): void {
  writeFileAtomic(path, `${JSON.stringify(state)}\n`);
}

/** Removes the file, but only when it is this process's (a second gateway's file is left alone). */
export function clearGatewayState(path: string, pid = process.pid): void {
  if (readGatewayState(path)?.pid === pid) rmSync(path, { force: true });
}

export function readGatewayState(path: string): GatewayState | undefined {
  try {
    const s = JSON.parse(readFileSync(path, 'utf8')) as GatewayState;
    return Number.isInteger(s.pid) && Number.isInteger(s.port) ? s : undefined;
  } catch {
    return undefined;
  }
}

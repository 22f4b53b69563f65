/**
 * `homunculus dashboard` run again while one serves this home on the port: a login link that
 * works once is spent by the first browser (or lapses after ten minutes), and signing out
 * leaves none. The running dashboard keeps a key in a file only its user reads; the second
 * command sends it and is given a new login token, instead of failing on the port in use.
 */
import { closeSync, constants, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { RELINK_HEADER } from './auth.js';

/** Writes a file only its owner reads, created afresh (never through a link someone put in its place). */
export function writePrivateFile(path: string, text: string): void {
  rmSync(path, { force: true });
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** Where the dashboard on `port` keeps its relink key: one per port, as its login page. */
export const relinkKeyPath = (home: string, port: number): string => join(home, `dashboard-${port}.key`);

/** A new login token from the dashboard serving this home on `port`, or undefined when none does (another program holds the port). */
export async function askForLogin(home: string, port: number): Promise<string | undefined> {
  let key: string;
  try {
    key = readFileSync(relinkKeyPath(home, port), 'utf8').trim();
  } catch {
    return undefined;
  }
  const origin = `http://127.0.0.1:${port}`;
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/api/relink', timeout: 5000 }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => {
        try {
          const token = (JSON.parse(body) as { token?: unknown }).token;
          resolve(res.statusCode === 200 && typeof token === 'string' ? token : undefined);
        } catch {
          resolve(undefined);
        }
      });
    });
    req.setHeader('host', `127.0.0.1:${port}`);
    req.setHeader('origin', origin);
    req.setHeader(RELINK_HEADER, key);
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

/**
 * The secret that local servers (the MCP HTTP transport, later the dashboard) ask for: a
 * random token in a file only the user can read. Anything else on the machine that can
 * reach 127.0.0.1 (another user, a web page through DNS rebinding) does not have it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { HomunculusError } from './errors.js';
import { ensureDir } from './fs.js';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;

/** Reads the token at `path`, creating it (0600) when it is missing or malformed. */
export function serverToken(path: string): string {
  const existing = readToken(path);
  if (existing) return existing;
  ensureDir(dirname(path));
  const token = randomBytes(32).toString('base64url');
  try {
    writeFileSync(path, `${token}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  } catch (err) {
    throw new HomunculusError('token', `Cannot write the server token ${path}`, {
      hint: 'make the data home writable (or choose another with --home)',
      cause: err,
    });
  }
  return token;
}

function readToken(path: string): string | undefined {
  try {
    // A token others can read is no secret: replace it.
    if ((statSync(path).mode & 0o077) !== 0) return undefined;
    const token = readFileSync(path, 'utf8').trim();
    return TOKEN_SHAPE.test(token) ? token : undefined;
  } catch {
    return undefined;
  }
}

/** Whether an `Authorization` header carries the token, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m?.[1]) return false;
  const given = Buffer.from(m[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

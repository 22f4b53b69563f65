/**
 * The gateway's bearer token. Only its bcrypt hash (cost 12) is kept, in the home; the token
 * is shown once when made. bcrypt at cost 12 takes 0.5-0.9 s per check on these cores, so a
 * token is checked with bcrypt once, then recognised by an HMAC under a key that lives only
 * in this process, compared in constant time. Rotating writes a new hash; a running gateway
 * reads the hash on each request, so the old token is dead at once. Empty, "undefined" and
 * "null" tokens (what a client sends when its variable was never set) are refused before any
 * check: OpenClaw accepted a literal "undefined".
 */
import bcrypt from 'bcryptjs';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { HomunculusError } from '../core/errors.js';
import { writeFileAtomic } from '../core/fs.js';

export const BCRYPT_COST = 12;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,128}$/;
const NOT_TOKENS = new Set(['', 'undefined', 'null', 'none', 'false', 'nan']);
/** Wrong tokens remembered, so a client repeating one costs no bcrypt check. */
const MAX_REJECTED = 1000;

export type TokenVerdict = { ok: true } | { ok: false; status: 401 | 503; reason: string };

/** Why a presented token can be refused without any check; undefined when it is worth checking. Pure. */
export function tokenShapeProblem(token: string | undefined): string | undefined {
  if (token === undefined) return 'no bearer token: send Authorization: Bearer <token> (`homunculus agent token` makes one)';
  if (NOT_TOKENS.has(token.trim().toLowerCase())) return `the token ${JSON.stringify(token)} is a placeholder, not a token`;
  if (!TOKEN_SHAPE.test(token)) return 'the token is malformed (a token is 43 URL-safe base64 characters)';
  return undefined;
}

/** The token of an Authorization header, or undefined. Pure. */
export function bearerOf(header: string | undefined): string | undefined {
  const m = /^Bearer[ \t]+(\S*)[ \t]*$/i.exec(header ?? '');
  return m ? (m[1] ?? '') : undefined;
}

/** Makes a new token, stores only its bcrypt hash at `path` (mode 0600), and returns the token to show once. */
export async function createToken(path: string, cost = BCRYPT_COST): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const hash = await bcrypt.hash(token, cost);
  try {
    writeFileAtomic(path, `${hash}\n`);
    chmodSync(path, 0o600);
  } catch (err) {
    throw new HomunculusError('token', `Cannot write the token hash ${path}.`, {
      hint: 'Make the data home writable (or choose another with --home).',
      cause: err,
    });
  }
  return token;
}

const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;

/** The stored hash, or undefined when no token was made (or its file no longer holds one). */
export function readTokenHash(path: string): string | undefined {
  try {
    const hash = readFileSync(path, 'utf8').trim();
    return BCRYPT_HASH.test(hash) ? hash : undefined;
  } catch {
    return undefined;
  }
}

/** Why there is no usable token, in words with the fix; undefined when there is one. */
export function missingTokenReason(path: string): string | undefined {
  if (readTokenHash(path)) return undefined;
  return existsSync(path)
    ? `the token file ${path} is damaged (it holds no bcrypt hash): run \`homunculus agent token\` to make a new token`
    : 'the gateway has no token yet: run `homunculus agent token`';
}

/** Checks presented tokens against the hash at `path`; one instance per gateway process. */
export class TokenVerifier {
  private readonly key = randomBytes(32);
  private hash: string | undefined;
  private known: Buffer | undefined;
  private rejected = new Set<string>();
  /** bcrypt checks run one at a time, so wrong tokens cannot take every core. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly path: string) {}

  private mac(token: string): Buffer {
    return createHmac('sha256', this.key).update(token).digest();
  }

  /** Forgets what was recognised when the stored hash changed (a rotation). */
  private follow(hash: string): void {
    if (hash === this.hash) return;
    this.hash = hash;
    this.known = undefined;
    this.rejected = new Set();
  }

  async verify(token: string | undefined): Promise<TokenVerdict> {
    const problem = tokenShapeProblem(token);
    if (problem || token === undefined) return { ok: false, status: 401, reason: problem ?? 'no token' };
    const hash = readTokenHash(this.path);
    if (!hash) return { ok: false, status: 503, reason: missingTokenReason(this.path) ?? 'no token' };
    this.follow(hash);
    const mac = this.mac(token);
    if (this.known && timingSafeEqual(mac, this.known)) return { ok: true };
    const id = mac.toString('hex');
    if (this.rejected.has(id)) return { ok: false, status: 401, reason: 'wrong token' };
    const check = this.queue.then(() => bcrypt.compare(token, hash));
    this.queue = check.catch(() => undefined);
    if (await check) {
      if (this.hash === hash) this.known = mac;
      return { ok: true };
    }
    if (this.rejected.size >= MAX_REJECTED) this.rejected.clear();
    this.rejected.add(id);
    return { ok: false, status: 401, reason: 'wrong token' };
  }
}

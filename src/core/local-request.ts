/**
 * What a server on 127.0.0.1 checks before it reads a request's body, as pure rules: the
 * Host and Origin name this server exactly (DNS rebinding and other local ports are
 * refused), the target is a path on it, and the client holds the token.
 */
import { HomunculusError } from './errors.js';
import { bearerMatches } from './token.js';

export interface RequestHead {
  url: string | undefined;
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
}

export type HeadVerdict = { ok: true; path: string } | { ok: false; status: 400 | 401 | 403; message: string };

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** Whether `host` (a Host header or a URL's host) names this server: a loopback name and our port. */
export function isOwnHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  return LOOPBACK_NAMES.some((name) => host.toLowerCase() === `${name}:${port}`);
}

/** Whether an Origin header names this server (a page it served), by a loopback name and our port. */
export function isOwnOrigin(origin: string | undefined, port: number): boolean {
  return origin !== undefined && LOOPBACK_NAMES.some((name) => origin === `http://${name}:${port}`);
}

/** The path a request line asks for: origin-form, or absolute-form naming this server. */
export function targetPath(url: string | undefined, port: number): string | undefined {
  if (!url) return undefined;
  if (url.startsWith('/')) return new URL(url, 'http://127.0.0.1').pathname;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && isOwnHost(parsed.host, port) ? parsed.pathname : undefined;
  } catch {
    return undefined;
  }
}

export function checkRequestHead(head: RequestHead, port: number, token: string): HeadVerdict {
  if (!isOwnHost(head.host, port))
    return { ok: false, status: 403, message: 'Forbidden: this server answers only to 127.0.0.1 by its own port' };
  if (head.origin !== undefined && !isOwnOrigin(head.origin, port))
    return { ok: false, status: 403, message: 'Forbidden: requests from other origins are refused' };
  const path = targetPath(head.url, port);
  if (path === undefined) return { ok: false, status: 400, message: 'Bad request: the target must be a path on this server' };
  if (!bearerMatches(head.authorization, token))
    return { ok: false, status: 401, message: 'Unauthorized: send Authorization: Bearer <the token in the data home file server-token>' };
  return { ok: true, path };
}

/** What a local server says when its port is taken: which one, and the fix. */
export function portInUse(port: number, cause: unknown): HomunculusError {
  return new HomunculusError('port_in_use', `Port ${port} on 127.0.0.1 is already in use.`, {
    hint: 'Stop the other server, or choose another port with --port (0 picks a free one).',
    cause,
  });
}

/**
 * Starts the gateway on 127.0.0.1 and nowhere else: any other host is refused before
 * listening, and the address the socket really bound is checked after, so a change in a
 * library's defaults cannot open it to the network unnoticed.
 */
import { type ServerType, serve } from '@hono/node-server';
import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenVerifier } from '../agent/gateway-token.js';
import type { AgentRunner } from '../agent/runner.js';
import { HomunculusError, UsageError } from '../core/errors.js';
import { portInUse } from '../core/local-request.js';
import type { RateLimit } from '../core/rate-limit.js';
import { gatewayApp } from './app.js';
import { PendingBook } from '../agent/pending.js';

export const LOOPBACK = '127.0.0.1';
/** How long a stopping gateway lets requests in flight finish, by default. */
export const GRACE_MS = 30_000;

export interface GatewayOptions {
  runner: AgentRunner;
  /** The bcrypt hash file of the bearer token (HomePaths.agentToken). */
  tokenPath: string;
  port: number;
  host?: string;
  rate?: RateLimit;
  tools?: () => string[];
  /** How long close() lets requests in flight finish before cutting them (default 30 s). */
  graceMs?: number;
}

export interface GatewayHandle {
  url: string;
  port: number;
  /** Requests being answered now: close() lets them finish. */
  inFlight(): number;
  close(): Promise<void>;
}

/** Refuses any host but 127.0.0.1, with the fix. Pure. */
export function assertLoopback(host: string): void {
  if (host !== LOOPBACK)
    throw new UsageError(
      `The gateway binds to ${LOOPBACK} only, not ${JSON.stringify(host)}.`,
      'Leave the host out; reach it from another machine through an SSH tunnel.',
    );
}

/**
 * Counts requests in flight, and closes: stops taking connections, answers 'no' to held
 * confirmations, lets requests in flight finish (a chat turn mid-answer keeps its answer) for
 * up to `graceMs`, then cuts what is left. A connection goes as soon as its last answer is
 * sent, rather than idling until its client lets it go.
 */
function lifecycle(server: ServerType, pending: PendingBook, graceMs: number) {
  const http = server as Server;
  let n = 0;
  let closing = false;
  http.on('request', (_req, res: ServerResponse) => {
    n++;
    res.once('close', () => {
      n--;
      if (closing) setImmediate(() => http.closeIdleConnections());
    });
  });
  const close = () =>
    new Promise<void>((done) => {
      closing = true;
      pending.close();
      const cut = setTimeout(() => http.closeAllConnections(), graceMs);
      http.close(() => {
        clearTimeout(cut);
        done();
      });
      http.closeIdleConnections();
    });
  return { inFlight: () => n, close };
}

/** Listens on 127.0.0.1:`port` (0 picks a free one); a port in use rejects with the fix. */
export function startGateway(options: GatewayOptions): Promise<GatewayHandle> {
  const host = options.host ?? LOOPBACK;
  assertLoopback(host);
  let bound = options.port;
  const pending = new PendingBook(options.runner);
  const app = gatewayApp({
    runner: options.runner,
    verifier: new TokenVerifier(options.tokenPath),
    pending,
    port: () => bound,
    ...(options.rate ? { rate: options.rate } : {}),
    ...(options.tools ? { tools: options.tools } : {}),
  });
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => {
      pending.close();
      reject(err.code === 'EADDRINUSE' ? portInUse(options.port, err) : err);
    };
    const server: ServerType = serve({ fetch: app.fetch, hostname: host, port: options.port }, (info: AddressInfo) => {
      server.off('error', failed);
      const { inFlight, close } = lifecycle(server, pending, options.graceMs ?? GRACE_MS);
      if (info.address !== LOOPBACK) {
        void close();
        reject(new HomunculusError('not_loopback', `The gateway bound ${info.address}, not ${LOOPBACK}; it stopped.`));
        return;
      }
      bound = info.port;
      resolve({ url: `http://${LOOPBACK}:${bound}`, port: bound, inFlight, close });
    });
    server.once('error', failed);
    // A client reuses an idle connection until the time the server advertises (5 s by default); a
    // client slower than that (a busy machine) sent a request on a socket the server was closing.
    Object.assign(server, { keepAliveTimeout: 60_000, headersTimeout: 65_000 });
  });
}

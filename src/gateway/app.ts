/**
 * The gateway's routes (Hono): `GET /health` (no token, no details), `GET /api/v1/status`,
 * `POST /api/v1/chat` and `POST /api/v1/confirm`. In order, every request: names this server
 * by its Host (DNS rebinding is refused) and, when it carries an Origin, comes from this
 * server; carries no token in its URL (CVE-2026-25253 sent one to a URL taken from a query
 * parameter); fits the client's rate; holds the bearer token; and sends a small JSON body
 * that the route's schema accepts. A dangerous tool call waits in the chat's answer as
 * `pending`; only `POST /api/v1/confirm` with answer "yes" runs it.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import type { Context, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { z } from 'zod';
import { type TokenVerifier, bearerOf } from '../agent/gateway-token.js';
import type { AgentRunner } from '../agent/runner.js';
import { agentConfirmInput, agentTurnInput } from '../app/agent-brain.js';
import { oneOf } from '../app/schemas.js';
import { UsageError } from '../core/errors.js';
import { isOwnHost, isOwnOrigin } from '../core/local-request.js';
import { refusalOf } from '../core/refusal.js';
import { packageVersion } from '../core/package.js';
import { type RateLimit, TokenBuckets } from '../core/rate-limit.js';
import type { PendingBook } from '../agent/pending.js';

export const MAX_BODY_BYTES = 64 * 1024;
export const DEFAULT_RATE: RateLimit = { perMinute: 60, burst: 20 };
/** Query parameters that carry a credential; a URL holding one is refused, whatever its value. */
/** Query parameters that carry a credential, however they are spelt (Token, access-token, apiKey, secret). */
const URL_TOKEN = /token|secret|passw|^(?:api[-_]?key|key|auth\w*|bearer|access[-_]?key)$/i;

// The same validation as every other surface of the agent (the session is optional here:
// the gateway names one when the client does not).
const chatBody = agentTurnInput.partial({ session: true }).strict();
const confirmBody = agentConfirmInput.extend({ answer: oneOf(['yes', 'no']) }).strict();

export interface GatewayDeps {
  runner: AgentRunner;
  verifier: TokenVerifier;
  pending: PendingBook;
  port: () => number;
  rate?: RateLimit;
  started?: number;
  tools?: () => string[];
}

type Status = 400 | 401 | 403 | 404 | 405 | 409 | 410 | 413 | 429 | 500 | 503;
const refuse = (c: Context, status: Status, error: string) => c.json({ error }, status);

/** Host, Origin and URL-borne tokens: refused before anything is read. */
function guard(port: () => number) {
  return async (c: Context, next: Next) => {
    if (!isOwnHost(c.req.header('host'), port())) return refuse(c, 403, 'This gateway answers only to 127.0.0.1 by its own port.');
    const origin = c.req.header('origin');
    if (origin !== undefined && !isOwnOrigin(origin, port())) return refuse(c, 403, 'Requests from other origins are refused.');
    const query = new URL(c.req.url).searchParams;
    if ([...query.keys()].some((k) => URL_TOKEN.test(k)))
      return refuse(c, 401, 'Tokens in URLs are refused (they end up in logs and histories): send Authorization: Bearer <token>.');
    await next();
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
  };
}

function limit(rate: RateLimit) {
  const buckets = new TokenBuckets(rate);
  return async (c: Context, next: Next) => {
    const verdict = buckets.take(getConnInfo(c).remote.address ?? 'unknown');
    if (!verdict.ok) {
      c.header('Retry-After', String(verdict.retryAfterSeconds));
      return refuse(c, 429, `Too many requests: try again in ${verdict.retryAfterSeconds} s.`);
    }
    await next();
  };
}

function authenticate(verifier: TokenVerifier) {
  return async (c: Context, next: Next) => {
    const verdict = await verifier.verify(bearerOf(c.req.header('authorization')));
    if (!verdict.ok) {
      if (verdict.status === 401) c.header('WWW-Authenticate', 'Bearer');
      return refuse(c, verdict.status, `Unauthorized: ${verdict.reason}.`);
    }
    await next();
  };
}

/** The body parsed by `schema`, or a usage error naming what is wrong. */
async function bodyOf<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch {
    throw new UsageError('The body must be JSON (Content-Type: application/json).');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((i) => `${i.path.join('.') || 'the body'}: ${i.message}`).join('; '));
  return parsed.data;
}

async function reply(c: Context, run: () => Promise<unknown>) {
  try {
    return c.json((await run()) as object);
  } catch (err) {
    // Ours, said with its fix: the model failed or cannot be reached, the agent is stopping.
    const refusal = refusalOf(err);
    if (refusal) return refuse(c, refusal.status, refusal.error);
    process.stderr.write(`gateway: ${(err as Error).stack ?? String(err)}\n`);
    return refuse(c, 500, 'The agent could not answer; see the terminal that runs the gateway.');
  }
}

export function gatewayApp(deps: GatewayDeps): Hono {
  const app = new Hono();
  const started = deps.started ?? Date.now();
  app.use('*', guard(deps.port));
  app.get('/health', (c) => c.json({ ok: true }));
  // Authenticated first: every local user shares 127.0.0.1, and a limit counted before the
  // token would let any of them spend the owner's allowance with requests that hold none.
  app.use('/api/*', authenticate(deps.verifier));
  app.use('/api/*', limit(deps.rate ?? DEFAULT_RATE));
  app.use(
    '/api/*',
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => refuse(c, 413, `Bodies are limited to ${MAX_BODY_BYTES} bytes.`) }),
  );
  app.get('/api/v1/status', (c) =>
    c.json({
      ok: true,
      version: packageVersion(),
      uptime_seconds: Math.round((Date.now() - started) / 1000),
      pending_confirmations: deps.pending.size,
      tools: deps.tools?.() ?? [],
    }),
  );
  app.post('/api/v1/chat', (c) =>
    reply(c, async () => {
      const body = await bodyOf(c, chatBody);
      const result = await deps.runner.turn({ session: body.session ?? 'gateway', message: body.message, signal: c.req.raw.signal });
      deps.pending.hold(result.pending);
      return result;
    }),
  );
  app.post('/api/v1/confirm', async (c) => {
    let body: z.output<typeof confirmBody>;
    try {
      body = await bodyOf(c, confirmBody);
    } catch (err) {
      return refuse(c, 400, (err as Error).message);
    }
    const claim = deps.pending.claim(body.id);
    if (!claim.ok)
      return claim.why === 'expired'
        ? refuse(c, 410, 'This confirmation expired and was answered no; ask again in the chat.')
        : refuse(c, 404, 'No confirmation has this id (it was never given, or was answered already).');
    return reply(c, async () => {
      const result = await deps.runner.confirm(body.id, body.answer, { signal: c.req.raw.signal });
      deps.pending.hold(result.pending);
      return result;
    });
  });
  // A route asked with another method: 405 naming the one it takes, not "no such route".
  for (const [path, method] of [
    ['/api/v1/status', 'GET'],
    ['/api/v1/chat', 'POST'],
    ['/api/v1/confirm', 'POST'],
  ] as const)
    app.all(path, (c) => {
      c.header('Allow', method);
      return refuse(c, 405, `${path} takes ${method}, not ${c.req.method}.`);
    });
  app.notFound((c) => refuse(c, 404, 'No such route: the gateway serves /health, /api/v1/status, /api/v1/chat and /api/v1/confirm.'));
  return app;
}

/**
 * The dashboard's HTTP server: Hono on 127.0.0.1 only. Every request must name this server
 * by its Host (DNS rebinding is refused) and, when it carries an Origin, come from a page of
 * this server; a request that changes something must carry that Origin. The built app's
 * files are public (they hold no data); every /api route but the login exchange needs the
 * session cookie. Bodies are size-limited and validated by the same operations the CLI and
 * the MCP server call. No configuration is ever sent.
 */
import { type ServerType, serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Context, Next } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { streamSSE } from 'hono/streaming';
import type { IncomingMessage, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invoke } from '../app/operation.js';
import type { AppContext } from '../app/operation.js';
import { feedback, listInstincts } from '../app/instincts.js';
import { counts } from '../app/lifecycle.js';
import { listProjects, previewPrompt, showProject } from '../app/projects.js';
import { recentSessions } from '../app/sessions.js';
import { isOwnHost, isOwnOrigin, portInUse, targetPath } from '../core/local-request.js';
import { LoginGate, RELINK_HEADER, SESSION_KEY_HEADER, sessionCookie } from './auth.js';
import { LiveChanges } from './live.js';
import { loadAssets } from './assets.js';
import { sessionsRoutes } from './routes-sessions.js';
import { healthRoutes } from './routes-health.js';
import { neuralRoutes } from './routes-neural.js';
import { answer, jsonBody, jsonObject, limitParam, refuse } from './respond.js';
import { correctRoutes } from './routes-correct.js';

/** The largest request body read; the dashboard sends small JSON objects. */
export const MAX_BODY_BYTES = 64 * 1024;
const LOOPBACK = '127.0.0.1';

const HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
};

/** Host, Origin and the security headers, before anything else. */
function guard(port: () => number) {
  return async (c: Context, next: Next) => {
    const own = port();
    if (!isOwnHost(c.req.header('host'), own)) return refuse(c, 403, 'This server answers only to 127.0.0.1 by its own port.');
    // The request line as sent: an absolute-form target may name another host whatever the Host header says.
    const target = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.url ?? c.req.url;
    if (targetPath(target, own) === undefined) return refuse(c, 400, 'The target must be a path on this server.');
    const origin = c.req.header('origin');
    if (origin !== undefined && !isOwnOrigin(origin, own)) return refuse(c, 403, 'Requests from other origins are refused.');
    // OPTIONS changes nothing: it is refused for the same reason, in words that fit it.
    if (c.req.method === 'OPTIONS' && origin === undefined)
      return refuse(c, 403, 'OPTIONS is answered only to the dashboard page (no Origin header).');
    if (!['GET', 'HEAD'].includes(c.req.method) && origin === undefined)
      return refuse(c, 403, 'A request that changes something must come from the dashboard page (no Origin header).');
    await next();
    for (const [k, v] of Object.entries(HEADERS)) c.header(k, v);
  };
}

export function dashboardApp(ctx: AppContext, gate: LoginGate, port: () => number, live: LiveChanges): Hono {
  const app = new Hono();
  app.use('*', guard(port));
  app.use(
    '/api/*',
    bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => refuse(c, 413, `Bodies are limited to ${MAX_BODY_BYTES} bytes.`) }),
  );
  const assets = loadAssets();
  app.get('*', async (c, next) => {
    const asset = assets.get(c.req.path);
    if (!asset) return next();
    return c.body(new Uint8Array(asset.body), 200, { 'Content-Type': asset.type });
  });
  app.post('/api/session', async (c) => {
    const token = ((await jsonBody(c).catch(() => undefined)) as { token?: unknown } | null | undefined)?.token;
    // A request that holds no token is not an expired link: say what it must hold.
    if (typeof token !== 'string') return refuse(c, 400, 'The body must be a JSON object {"token": "<the token of the login link>"}.');
    const signed = gate.exchange(token);
    if (!signed) return refuse(c, 401, 'This login link was already used or has expired: run `homunculus dashboard` again for a new one.');
    setCookie(c, sessionCookie(port()), signed.session, { httpOnly: true, sameSite: 'Strict', path: '/' });
    return c.json({ ok: true, key: signed.key });
  });
  app.post('/api/relink', (c) => {
    const token = gate.relink(c.req.header(RELINK_HEADER));
    if (!token) return refuse(c, 401, 'Only `homunculus dashboard`, run again by the same user, gets a new login link here.');
    return c.json({ token });
  });
  app.use('/api/*', async (c, next) => {
    // The change stream says only that something changed; an EventSource cannot send the key.
    const key = c.req.path === '/api/events' ? null : c.req.header(SESSION_KEY_HEADER);
    if (!gate.holds(getCookie(c, sessionCookie(port())), key))
      return refuse(c, 401, 'Not signed in: open the login link `homunculus dashboard` printed.');
    await next();
  });
  app.post('/api/logout', (c) => {
    gate.end(getCookie(c, sessionCookie(port())));
    deleteCookie(c, sessionCookie(port()), { path: '/' });
    return c.json({ ok: true });
  });
  app.get('/api/events', (c) =>
    streamSSE(c, async (stream) => {
      await stream.writeSSE({ event: 'hello', data: '' });
      await new Promise<void>((done) => {
        const stop = live.listen((mark) => void stream.writeSSE({ event: 'change', data: mark }));
        const keepAlive = setInterval(() => void stream.write(': keep-alive\n\n'), 15_000);
        stream.onAbort(() => {
          stop();
          clearInterval(keepAlive);
          done();
        });
      });
    }),
  );
  app.get('/api/sessions', (c) => answer(c, () => invoke(recentSessions, ctx, { limit: limitParam(c, 'limit', 50, 1000) })));
  app.get('/api/projects', (c) => answer(c, () => invoke(listProjects, ctx, {})));
  app.get('/api/projects/:project', (c) => answer(c, () => invoke(showProject, ctx, { project: c.req.param('project') })));
  app.post('/api/projects/:project/prompt', (c) =>
    answer(c, async () => invoke(previewPrompt, ctx, { ...(await jsonObject(c)), project: c.req.param('project') } as never)),
  );
  app.get('/api/overview', (c) => answer(c, () => invoke(counts, ctx, {})));
  app.get('/api/instincts', (c) =>
    answer(c, () => invoke(listInstincts, ctx, { limit: limitParam(c, 'limit', 200, 5000), find: c.req.query('find') || undefined })),
  );
  app.post('/api/instincts/feedback', (c) =>
    answer(c, async () => invoke(feedback, ctx, { ...(await jsonObject(c)), source: 'dashboard' } as never)),
  );
  sessionsRoutes(app, ctx);
  healthRoutes(app, ctx);
  correctRoutes(app, ctx);
  neuralRoutes(app, ctx);
  app.notFound((c) => refuse(c, 404, 'No such page.'));
  return app;
}

export interface DashboardHandle {
  url: string;
  port: number;
  gate: LoginGate;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0 picks a free one); a port in use rejects with the fix. */
export function startDashboard(ctx: AppContext, port: number): Promise<DashboardHandle> {
  const gate = new LoginGate();
  const live = new LiveChanges(ctx);
  let bound = port;
  const app = dashboardApp(ctx, gate, () => bound, live);
  return new Promise((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? portInUse(port, err) : err);
    const server: ServerType = serve({ fetch: app.fetch, hostname: LOOPBACK, port }, (info: AddressInfo) => {
      bound = info.port;
      server.off('error', failed);
      resolve({
        url: `http://${LOOPBACK}:${bound}`,
        port: bound,
        gate,
        close: () =>
          new Promise<void>((done) => {
            live.stop();
            const http = server as Server;
            http.close(() => done());
            // A browser's kept-alive connections would hold the process open.
            http.closeAllConnections();
          }),
      });
    });
    server.once('error', failed);
  });
}

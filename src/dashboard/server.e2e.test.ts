import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { type DashboardHandle, MAX_BODY_BYTES, startDashboard } from './server.js';

const KEY = 'pref:webapp/test=npm-test';
let store: TestStore;
let dash: DashboardHandle;
let origin: string;

beforeAll(async () => {
  store = testStore('2026-03-01T00:00:00.000Z');
  observe(store, { pattern: KEY, trigger: 'when you need to run the tests', action: 'Use `npm test`.', occurrences: 4 });
  dash = await startDashboard({ store, env: {} }, 0);
  origin = dash.url;
});
afterAll(async () => {
  await dash.close();
  store.cleanup();
});

const call = (path: string, init: RequestInit = {}) => fetch(`${dash.url}${path}`, init);
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are checked field by field below
const json = async (res: Response): Promise<any> => await res.json();
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: origin, ...headers }, body: JSON.stringify(body) });

/** Signs in: the headers a signed-in page sends, its cookie and its key. */
async function signIn(): Promise<Record<string, string>> {
  const res = await post('/api/session', { token: dash.gate.issueLogin() });
  expect(res.status).toBe(200);
  const cookie = res.headers.get('set-cookie') ?? '';
  expect(cookie).toMatch(new RegExp(`^homunculus_session_${dash.port}=[A-Za-z0-9_-]+; Path=/; HttpOnly; SameSite=Strict$`));
  const { key } = (await res.json()) as { key: string };
  return { Cookie: cookie.split(';')[0] as string, 'X-Homunculus-Key': key };
}

describe('the dashboard server on 127.0.0.1', () => {
  it('serves the page with a strict CSP and no data, and every API route only with a session', async () => {
    const page = await call('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(await page.text()).not.toMatch(/npm test/);
    for (const path of ['/api/overview', '/api/instincts']) {
      const res = await call(path);
      expect(res.status).toBe(401);
      expect((await json(res)).error).toMatch(/Not signed in/);
    }
    expect((await call('/api/overview', { headers: { Cookie: `homunculus_session_${dash.port}=forged` } })).status).toBe(401);
  });

  it('answers a sign-in without a token 400, saying what it must hold, and a used link 401', async () => {
    const raw = await call('/api/session', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: '{nope',
    });
    expect(raw.status).toBe(400);
    expect((await json(raw)).error).toMatch(/\{"token": /);
    expect((await post('/api/session', { token: 42 })).status).toBe(400);
    const login = dash.gate.issueLogin();
    expect((await post('/api/session', { token: login })).status).toBe(200);
    const again = await post('/api/session', { token: login });
    expect(again.status).toBe(401);
    expect((await json(again)).error).toMatch(/already used or has expired/);
  });

  it('signs nobody in with the cookie alone: the browser sends it to every port of 127.0.0.1, never the key', async () => {
    const auth = await signIn();
    expect((await call('/api/overview', { headers: auth })).status).toBe(200);
    const leaked = { Cookie: auth.Cookie as string };
    expect((await call('/api/overview', { headers: leaked })).status).toBe(401);
    expect((await post('/api/instincts/feedback', { pattern: KEY, verdict: 'wrong' }, leaked)).status).toBe(401);
    expect((await call('/api/overview', { headers: { ...leaked, 'X-Homunculus-Key': 'guessed' } })).status).toBe(401);
    // Another port's cookie name is not this dashboard's: two dashboards do not sign each other out.
    const renamed = (auth.Cookie as string).replace(`_${dash.port}=`, `_${dash.port + 1}=`);
    expect((await call('/api/overview', { headers: { ...auth, Cookie: renamed } })).status).toBe(401);
  });

  it('refuses other hosts and origins, and changes from a request without an Origin', async () => {
    const auth = await signIn();
    expect((await call('/api/overview', { headers: { ...auth, Origin: 'http://evil.example' } })).status).toBe(403);
    expect((await post('/api/session', { token: dash.gate.issueLogin() }, { Origin: `http://127.0.0.1:${dash.port + 1}` })).status).toBe(
      403,
    );
    const noOrigin = await call('/api/instincts/feedback', {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ pattern: KEY, verdict: 'strong' }),
    });
    expect(noOrigin.status).toBe(403);
    const options = await call('/api/overview', { method: 'OPTIONS', headers: auth });
    expect(options.status).toBe(403);
    expect((await json(options)).error).toBe('OPTIONS is answered only to the dashboard page (no Origin header).');
    // DNS rebinding: a name that resolves here but is not ours.
    const http = await import('node:http');
    const status = await new Promise<number>((done) =>
      http.get({ host: '127.0.0.1', port: dash.port, path: '/', headers: { Host: `evil.example:${dash.port}` } }, (r) =>
        done(r.statusCode ?? 0),
      ),
    );
    expect(status).toBe(403);
    // An absolute-form target naming another host, however right the Host and the session are.
    const target = (path: string) =>
      new Promise<number>((done) =>
        http.get({ host: '127.0.0.1', port: dash.port, path, headers: { ...auth, Host: `127.0.0.1:${dash.port}` } }, (r) => {
          r.resume();
          done(r.statusCode ?? 0);
        }),
      );
    expect(await target('http://evil.example/api/overview')).toBe(400);
    expect(await target(`https://127.0.0.1:${dash.port}/api/overview`)).toBe(400);
    expect(await target(`http://127.0.0.1:${dash.port}/api/overview`)).toBe(200);
    expect(await target('/api/overview')).toBe(200);
  });

  it('trades a login token once, then shows and corrects what was learned, logged as the dashboard', async () => {
    const token = dash.gate.issueLogin();
    expect((await post('/api/session', { token })).status).toBe(200);
    const again = await post('/api/session', { token });
    expect(again.status).toBe(401);
    expect((await json(again)).error).toMatch(/already used or has expired/);
    const auth = await signIn();
    const overview = await json(await call('/api/overview', { headers: auth }));
    expect(overview).toMatchObject({ pending_observations: 0 });
    expect(JSON.stringify(overview)).not.toMatch(/config|secret|token/i);
    const list = await json(await call('/api/instincts', { headers: auth }));
    expect(list.instincts.map((i: { pattern: string }) => i.pattern)).toContain(KEY);
    const wrong = await post('/api/instincts/feedback', { pattern: KEY, verdict: 'wrong' }, auth);
    expect(await json(wrong)).toMatchObject({ pattern: KEY, feedback: 'wrong', after: 0.2 });
    const row = store.instincts.get(KEY);
    expect(row?.confidence).toBe(0.2);
    const events = store.instincts.events(row?.id ?? 0, { kinds: ['feedback'] });
    expect(events.map((e) => e.source)).toEqual(['dashboard']);
  });

  it('answers bad bodies with what is wrong, and stores nothing', async () => {
    const auth = await signIn();
    const before = store.instincts.get(KEY)?.confidence;
    const bad = await post('/api/instincts/feedback', { pattern: KEY, verdict: 'meh' }, auth);
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatch(/verdict must be one of wrong, weak, strong/);
    const unknown = await post('/api/instincts/feedback', { pattern: 'pref:nope', verdict: 'weak' }, auth);
    expect(unknown.status).toBe(404);
    expect((await call('/api/projects/not-a-project', { headers: auth })).status).toBe(400);
    const emptyPrompt = await post('/api/projects/0123456789abcdef/prompt', { prompt: ' ' }, auth);
    expect(emptyPrompt.status).toBe(400);
    expect((await json(emptyPrompt)).error).toMatch(/prompt is empty/);
    const unknownProject = await call('/api/projects/0123456789abcdef', { headers: auth });
    expect(unknownProject.status).toBe(404);
    expect((await json(unknownProject)).error).toMatch(/Not found: project 0123456789abcdef/);
    const notJson = await call('/api/instincts/feedback', { method: 'POST', headers: { ...auth, Origin: origin }, body: '{nope' });
    expect(notJson.status).toBe(400);
    const huge = await post('/api/instincts/feedback', { pattern: KEY, verdict: 'x'.repeat(MAX_BODY_BYTES) }, auth);
    expect(huge.status).toBe(413);
    expect(store.instincts.get(KEY)?.confidence).toBe(before);
  });

  it('tells a signed-in page when anything is stored, within 2 s', async () => {
    expect((await call('/api/events')).status).toBe(401);
    const auth = await signIn();
    const res = await call('/api/events', { headers: auth });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let seen = '';
    const until = async (text: string, ms: number): Promise<number> => {
      const start = Date.now();
      while (!seen.includes(text)) {
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`no ${text} in ${seen}`)), ms)),
        ]);
        seen += new TextDecoder().decode(chunk.value);
      }
      return Date.now() - start;
    };
    await until('event: hello', 2000);
    observe(store, { pattern: 'pref:webapp/lint=npm-run-lint', trigger: 'when you need to lint', action: 'Use `npm run lint`.' });
    expect(await until('event: change', 2000)).toBeLessThan(2000);
    await reader.cancel();
  });

  it('says how to fix a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startDashboard({ store, env: {} }, port)).rejects.toMatchObject({
        message: `Port ${port} on 127.0.0.1 is already in use.`,
        hint: expect.stringMatching(/--port/),
      });
    } finally {
      blocker.close();
    }
  });
});

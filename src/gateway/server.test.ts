import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HomunculusError } from '../core/errors.js';
import { createToken } from '../agent/gateway-token.js';
import { builtinRegistry } from '../agent/tools/builtin.js';
import { scaffoldWorkspace } from '../agent/workspace.js';
import { type ScriptStep, mockRunner, scriptedModel } from '../test-support/mock-runner.js';
import { type GatewayHandle, startGateway } from './server.js';

const dir = mkdtempSync(join(tmpdir(), 'hom-gateway-'));
const tokenPath = join(dir, 'agent-token.bcrypt');
const workspace = join(dir, 'workspace');
let token = '';

beforeAll(async () => {
  scaffoldWorkspace(workspace);
  token = await createToken(tokenPath, 4);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** A raw HTTP call, so Host, Origin and the body are exactly what a test sends. */
function call(port: number, method: string, path: string, o: { headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...o.headers } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const json = (body: unknown, bearer = token) => ({
  headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const handles: GatewayHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

async function gateway(script: ScriptStep[] = [], o: { rate?: { perMinute: number; burst: number }; ttl?: number; graceMs?: number } = {}) {
  const runner = mockRunner({
    model: scriptedModel(script),
    registry: builtinRegistry(),
    context: { workspace, home: dir },
    ...(o.ttl ? { confirmTtlMs: o.ttl } : {}),
  });
  const handle = await startGateway({
    runner,
    tokenPath,
    port: 0,
    ...(o.rate ? { rate: o.rate } : {}),
    ...(o.graceMs ? { graceMs: o.graceMs } : {}),
  });
  handles.push(handle);
  return { runner, port: handle.port, handle };
}

describe('the gateway binds to loopback only', () => {
  it('refuses any other host before listening, with the fix', async () => {
    const runner = mockRunner({ model: scriptedModel([]), registry: builtinRegistry(), context: { workspace, home: dir } });
    for (const host of ['0.0.0.0', '::', 'localhost', '192.168.1.2'])
      expect(() => startGateway({ runner, tokenPath, port: 0, host })).toThrow(/127\.0\.0\.1 only.*|SSH tunnel/);
  });

  it('serves /health on 127.0.0.1 without a token and without details', async () => {
    const { port } = await gateway();
    const r = await call(port, 'GET', '/health');
    expect(r).toMatchObject({ status: 200, body: { ok: true } });
    expect(Object.keys(r.body)).toEqual(['ok']);
  });
});

describe('the gateway refuses who it must', () => {
  it('answers 401 without a token, with a wrong one, "undefined", "null" or an empty one', async () => {
    const { port } = await gateway();
    expect((await call(port, 'GET', '/api/v1/status')).status).toBe(401);
    for (const bad of ['undefined', 'null', '', 'x'.repeat(43)]) {
      const r = await call(port, 'GET', '/api/v1/status', { headers: { authorization: `Bearer ${bad}` } });
      expect(r.status, bad).toBe(401);
      expect(r.headers['www-authenticate']).toBe('Bearer');
    }
    const ok = await call(port, 'GET', '/api/v1/status', { headers: { authorization: `Bearer ${token}` } });
    expect(ok).toMatchObject({ status: 200, body: { ok: true, pending_confirmations: 0 } });
    expect(ok.body.tools).toEqual([]);
  });

  it('refuses a token in the URL even when it is the right one, and with a good header too', async () => {
    const { port } = await gateway();
    for (const q of [
      `token=${token}`,
      `access_token=${token}`,
      `Token=${token}`,
      `access-token=${token}`,
      `apiKey=${token}`,
      `secret=${token}`,
    ]) {
      const r = await call(port, 'GET', `/api/v1/status?${q}`, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(401);
      expect(String(r.body.error)).toMatch(/Tokens in URLs/);
    }
    expect((await call(port, 'GET', `/health?token=${token}`)).status).toBe(401);
  });

  it('answers 403 to a foreign Origin and a wrong Host (DNS rebinding)', async () => {
    const { port } = await gateway();
    const auth = { authorization: `Bearer ${token}` };
    expect((await call(port, 'GET', '/api/v1/status', { headers: { ...auth, origin: 'https://evil.example' } })).status).toBe(403);
    expect((await call(port, 'GET', '/api/v1/status', { headers: { ...auth, host: `evil.example:${port}` } })).status).toBe(403);
    expect((await call(port, 'GET', '/health', { headers: { host: `127.0.0.1:${port + 1}` } })).status).toBe(403);
    expect((await call(port, 'GET', '/api/v1/status', { headers: { ...auth, origin: `http://127.0.0.1:${port}` } })).status).toBe(200);
  });

  it('answers 405 with Allow to a route asked with another method, 404 to no route, and 503 naming a damaged token file', async () => {
    const { port } = await gateway();
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const got = await call(port, 'GET', '/api/v1/chat', auth);
    expect(got).toMatchObject({ status: 405, headers: { allow: 'POST' }, body: { error: '/api/v1/chat takes POST, not GET.' } });
    expect((await call(port, 'DELETE', '/api/v1/status', auth)).status).toBe(405);
    // A route that is not one stays 404, and a method check never comes before the token.
    expect((await call(port, 'GET', '/api/v1/nope', auth)).status).toBe(404);
    expect((await call(port, 'GET', '/api/v1/chat')).status).toBe(401);
    const damaged = join(dir, 'damaged-token.bcrypt');
    writeFileSync(damaged, 'not a hash\n');
    const runner = mockRunner({ model: scriptedModel([]), registry: builtinRegistry(), context: { workspace, home: dir } });
    const other = await startGateway({ runner, tokenPath: damaged, port: 0 });
    handles.push(other);
    const r = await call(other.port, 'GET', '/api/v1/status', auth);
    expect(r.status).toBe(503);
    expect(r.body.error).toMatch(/damaged-token\.bcrypt is damaged .*homunculus agent token/);
  });

  it('answers 413 to a big body, 400 to bad JSON and to a body its schema refuses', async () => {
    const { port } = await gateway();
    expect((await call(port, 'POST', '/api/v1/chat', json({ message: 'x'.repeat(70_000) }))).status).toBe(413);
    const bad = await call(port, 'POST', '/api/v1/chat', { ...json({}), body: '{"message": ' });
    expect(bad.status).toBe(400);
    expect(String(bad.body.error)).toMatch(/must be JSON/);
    const wrong = await call(port, 'POST', '/api/v1/chat', json({ message: '', extra: 1 }));
    expect(wrong.status).toBe(400);
    expect(String(wrong.body.error)).toMatch(/message: is empty: type a message/);
    expect((await call(port, 'POST', '/api/v1/confirm', json({ id: 'x', answer: 'maybe' }))).status).toBe(400);
  });

  it('answers 429 with Retry-After when a client goes over its rate', async () => {
    const { port } = await gateway([], { rate: { perMinute: 6, burst: 2 } });
    const auth = { headers: { authorization: `Bearer ${token}` } };
    expect((await call(port, 'GET', '/api/v1/status', auth)).status).toBe(200);
    expect((await call(port, 'GET', '/api/v1/status', auth)).status).toBe(200);
    const r = await call(port, 'GET', '/api/v1/status', auth);
    expect(r.status).toBe(429);
    expect(r.headers['retry-after']).toBe('10');
  });

  it('counts only authenticated requests against the rate: tokenless ones cannot lock the owner out', async () => {
    const { port } = await gateway([], { rate: { perMinute: 6, burst: 2 } });
    for (let i = 0; i < 5; i++) expect((await call(port, 'GET', '/api/v1/status')).status).toBe(401);
    expect((await call(port, 'GET', '/api/v1/status', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });

  it('kills the old token at once when it is rotated', async () => {
    const { port } = await gateway();
    const old = token;
    expect((await call(port, 'GET', '/api/v1/status', { headers: { authorization: `Bearer ${old}` } })).status).toBe(200);
    token = await createToken(tokenPath, 4);
    expect((await call(port, 'GET', '/api/v1/status', { headers: { authorization: `Bearer ${old}` } })).status).toBe(401);
    expect((await call(port, 'GET', '/api/v1/status', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

describe('a chat through the gateway', () => {
  const write = { tool: 'workspace_write', input: { path: 'note.md', content: 'hello' } };

  it('runs a safe tool at once and answers with the model text', async () => {
    const { port, runner } = await gateway([{ tool: 'echo', input: { text: 'hi' } }, { text: 'It said hi.' }]);
    const r = await call(port, 'POST', '/api/v1/chat', json({ message: 'echo hi', session: 's1' }));
    expect(r).toMatchObject({ status: 200, body: { session: 's1', text: 'It said hi.', toolCalls: [{ tool: 'echo' }] } });
    expect(r.body.pending).toBeUndefined();
    expect(runner.ran).toEqual(['echo']);
  });

  it('answers a failure of ours (the model down, the agent stopping) as a 503 with its fix, not a bare 500', async () => {
    const { port, runner } = await gateway();
    runner.turn = () =>
      Promise.reject(
        new HomunculusError('model_failed', 'The model ollama:m at http://127.0.0.1:9 failed: HTTP 500.', {
          hint: 'Check the model server.',
        }),
      );
    const r = await call(port, 'POST', '/api/v1/chat', json({ message: 'hi' }));
    expect(r).toMatchObject({
      status: 503,
      body: { error: 'The model ollama:m at http://127.0.0.1:9 failed: HTTP 500. Check the model server.' },
    });
  });

  it('holds a dangerous tool until an explicit yes, then runs it once', async () => {
    const { port, runner } = await gateway([write, { text: 'Written.' }]);
    const r = await call(port, 'POST', '/api/v1/chat', json({ message: 'write a note' }));
    const pending = r.body.pending as { id: string; tool: string };
    expect(pending.tool).toBe('workspace_write');
    expect(runner.ran).toEqual([]);
    // Another message meanwhile: the session cannot take it now (409), and the error says how to answer.
    const busy = await call(port, 'POST', '/api/v1/chat', json({ message: 'and another thing' }));
    expect(busy.status).toBe(409);
    expect(busy.body.error).toContain(`POST /api/v1/confirm {"id": "${pending.id}"`);
    const yes = await call(port, 'POST', '/api/v1/confirm', json({ id: pending.id, answer: 'yes' }));
    expect(yes).toMatchObject({ status: 200, body: { text: 'Written.' } });
    expect(runner.ran).toEqual(['workspace_write']);
    expect((await call(port, 'POST', '/api/v1/confirm', json({ id: pending.id, answer: 'yes' }))).status).toBe(404);
  });

  it('does not run it on no, on an unknown id, or after expiry (nobody answered: it fails closed)', async () => {
    const { port, runner } = await gateway([write, { text: 'Declined.' }, write, { text: 'Too late.' }], { ttl: 150 });
    const first = await call(port, 'POST', '/api/v1/chat', json({ message: 'write' }));
    const no = await call(port, 'POST', '/api/v1/confirm', json({ id: (first.body.pending as { id: string }).id, answer: 'no' }));
    expect(no.body.toolCalls).toMatchObject([{ tool: 'workspace_write', refused: expect.stringMatching(/declined/) }]);
    expect((await call(port, 'POST', '/api/v1/confirm', json({ id: 'never-given', answer: 'yes' }))).status).toBe(404);
    const second = await call(port, 'POST', '/api/v1/chat', json({ message: 'write again' }));
    await new Promise((r) => setTimeout(r, 250));
    const late = await call(port, 'POST', '/api/v1/confirm', json({ id: (second.body.pending as { id: string }).id, answer: 'yes' }));
    // Past its expiry (swept by then): 410, said as expired, not as an id never given.
    expect(late.status).toBe(410);
    expect(runner.ran).toEqual([]);
  });
});

describe('the gateway stops without losing an answer', () => {
  const slow = (runner: { turn: (r: never) => Promise<unknown> }, ms: number) => {
    const turn = runner.turn.bind(runner);
    runner.turn = (r: never) => new Promise((resolve) => setTimeout(() => resolve(turn(r)), ms));
  };

  it('lets a chat turn in flight finish and answer, then refuses new connections', async () => {
    const { port, runner, handle } = await gateway([{ text: 'Done thinking.' }]);
    slow(runner as never, 400);
    const answer = call(port, 'POST', '/api/v1/chat', json({ message: 'think' }));
    await new Promise((r) => setTimeout(r, 100));
    expect(handle.inFlight()).toBe(1);
    await handle.close();
    expect(await answer).toMatchObject({ status: 200, body: { text: 'Done thinking.' } });
    const refused = new Promise((resolve) =>
      connect(port, '127.0.0.1')
        .once('error', resolve)
        .once('connect', () => resolve('connected')),
    );
    expect(String(await refused)).toMatch(/ECONNREFUSED/);
  });

  it('cuts a turn that outlasts the grace, so stopping never hangs', async () => {
    const { port, runner, handle } = await gateway([], { graceMs: 150 });
    runner.turn = () => new Promise(() => {});
    const answer = call(port, 'POST', '/api/v1/chat', json({ message: 'never ends' }));
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    await handle.close();
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(answer).rejects.toThrow(/socket hang up|ECONNRESET/);
  });
});

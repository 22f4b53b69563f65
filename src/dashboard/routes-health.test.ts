import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { type TestStore, testStore } from '../test-support/store.js';
import type { DashboardHandle } from './server.js';
import { signedInDashboard } from '../test-support/dashboard-api.js';

let store: TestStore;
let dash: DashboardHandle;
let auth: Record<string, string>;

beforeAll(async () => {
  store = testStore('2026-03-01T00:00:00.000Z');
  observe(store, { pattern: 'pref:pkg=pnpm', trigger: 'installing packages', action: 'use pnpm', occurrences: 3 });
  ({ dash, auth } = await signedInDashboard(store));
});
afterAll(async () => {
  await dash.close();
  store.cleanup();
});

const get = async (path: string, withCookie = true) => {
  const res = await fetch(`${dash.url}${path}`, withCookie ? { headers: auth } : {});
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('the Memory, Security and Telemetry routes', () => {
  it('answer only with a session', async () => {
    for (const path of ['/api/memory/health', '/api/memory/diff?from=2026-01-01&to=2026-03-01', '/api/telemetry', '/api/security'])
      expect((await get(path, false)).status).toBe(401);
  });

  it('answer each with its operation', async () => {
    const health = await get('/api/memory/health');
    expect(health.status).toBe(200);
    expect((health.body.tiers as unknown[]).length).toBe(3);
    const diff = await get('/api/memory/diff?from=2026-03-01&to=2026-03-01');
    expect(diff.status).toBe(200);
    expect((diff.body.instincts as { created: { pattern: string }[] }).created.map((i) => i.pattern)).toEqual(['pref:pkg=pnpm']);
    // Without an end, up to now, as `changes` takes it.
    expect(await get('/api/memory/diff?from=2026-02-01')).toMatchObject({
      status: 200,
      body: { from: expect.stringMatching(/^2026-02-01/) },
    });
    expect((await get('/api/telemetry')).body).toMatchObject({ calls: 0, events: [] });
    expect((await get('/api/security')).body).toMatchObject({ redactions: { total: 0, kinds: [] } });
  });

  it('refuse dates they cannot read with a 400 that says what a date looks like', async () => {
    const missing = await get('/api/memory/diff?to=2026-03-01');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^from must be a date such as 2026-03-01/);
    const reversed = await get('/api/memory/diff?from=2026-03-02&to=2026-03-01');
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toMatch(/must come before/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSessions } from '../test-support/sessions.js';
import { type TestStore, testStore } from '../test-support/store.js';
import type { DashboardHandle } from './server.js';
import { signedInDashboard } from '../test-support/dashboard-api.js';

let store: TestStore;
let dash: DashboardHandle;
let auth: Record<string, string>;

beforeAll(async () => {
  store = testStore('2026-03-01T00:00:00.000Z');
  seedSessions(store, store.paths.home);
  ({ dash, auth } = await signedInDashboard(store));
});
afterAll(async () => {
  await dash.close();
  store.cleanup();
});

const get = (path: string) => fetch(`${dash.url}${path}`, { headers: auth });
const post = (path: string, body: string) =>
  fetch(`${dash.url}${path}`, { method: 'POST', headers: { ...auth, Origin: dash.url, 'Content-Type': 'application/json' }, body });
const error = async (res: Response) => ((await res.json()) as { error: string }).error;

describe('the session routes', () => {
  it('answer with the operations, 404 for an unknown session and 400 for bad input, and only when signed in', async () => {
    expect((await fetch(`${dash.url}/api/sessions/s1/replay`)).status).toBe(401);
    const replay = await get('/api/sessions/s1/replay');
    expect(replay.status).toBe(200);
    expect(((await replay.json()) as { steps: unknown[] }).steps).toHaveLength(8);
    const transcript = await get('/api/sessions/s3/transcript');
    expect(((await transcript.json()) as { origin: string }).origin).toBe('transcript');
    const unknown = await get('/api/sessions/nope/transcript');
    expect(unknown.status).toBe(404);
    expect(await error(unknown)).toMatch(/Not found: session nope/);
    expect((await get(`/api/sessions/${'x'.repeat(201)}/replay`)).status).toBe(400);
    for (const path of ['/api/sessions/threads', '/api/sessions/signals?days=7', '/api/tools/timeline'])
      expect((await get(path)).status).toBe(200);
    // A range ends on the day asked for, within the stored history it names; a day that is none is refused.
    const ranged = (await (await get('/api/sessions/signals?days=7&to=2026-02-10')).json()) as {
      days: { day: string }[];
      first: string | null;
      latest: string | null;
    };
    expect(ranged.days.map((d) => d.day).at(-1)).toBe('2026-02-10');
    expect(ranged.days).toHaveLength(7);
    expect(ranged.first).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(((await (await get('/api/tools/timeline?to=2026-02-10')).json()) as { days: { key: string }[] }).days.at(-1)?.key).toBe(
      '2026-02-10',
    );
    const badDay = await get('/api/sessions/signals?to=yesterday');
    expect(badDay.status).toBe(400);
    expect(await error(badDay)).toMatch(/to must be a day such as 2026-03-01/);
    const empty = await post('/api/chat', JSON.stringify({ question: '' }));
    expect(empty.status).toBe(400);
    expect(await error(empty)).toMatch(/question is empty/);
    expect((await post('/api/chat', '[1]')).status).toBe(400);
    const asked = await post('/api/chat', JSON.stringify({ question: 'what about the login page?' }));
    expect(asked.status).toBe(200);
    expect(((await asked.json()) as { note: string }).note).toMatch(/No model is configured/);
  });
});

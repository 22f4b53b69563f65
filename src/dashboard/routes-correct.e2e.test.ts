/** The correction routes on a real server: what they refuse and how, and that every change is logged as the dashboard's. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addFact } from '../app/graph.js';
import { invoke } from '../app/operation.js';
import { observe } from '../learn/instincts.js';
import { addDocuments } from '../search/memory.js';
import { type TestStore, testStore } from '../test-support/store.js';
import type { DashboardHandle } from './server.js';
import { signedInDashboard } from '../test-support/dashboard-api.js';

const KEY = 'pref:webapp/test=npm-test';
const DUPLICATE = 'pref:webapp/test=npm-run-test';
const PROJECT = 'aaaaaaaaaaaaaaaa';
let store: TestStore;
let dash: DashboardHandle;
let auth: Record<string, string>;

beforeAll(async () => {
  store = testStore('2026-03-01T00:00:00.000Z');
  ({ dash, auth } = await signedInDashboard(store));
});
afterAll(async () => {
  await dash.close();
  store.cleanup();
});
beforeEach(() => {
  for (const key of [KEY, DUPLICATE])
    if (!store.instincts.get(key)) observe(store, { pattern: key, trigger: 'when you run the tests', action: 'Use `npm test`.' });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are checked field by field below
type Answer = { status: number; body: any };
/** A POST with the session; from the dashboard's own Origin unless `headers` names another (or none). */
const send = async (path: string, body: unknown, headers: Record<string, string> = { Origin: '' }): Promise<Answer> => {
  const res = await fetch(`${dash.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...auth, ...headers, ...(headers.Origin === '' ? { Origin: dash.url } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
};
const sources = (key: string) => store.instincts.events(store.instincts.get(key)?.id ?? -1).map((e) => [e.kind, e.source]);

describe('correcting an instinct from the dashboard', () => {
  it('refuses an edit started from text someone changed meanwhile, saying what it reads now, and saves nothing', async () => {
    const LINT = 'pref:webapp/lint=npm-run-lint';
    const was = { trigger: 'when you lint', action: 'Use `npm run lint`.' };
    observe(store, { pattern: LINT, ...was });
    store.instincts.update(store.instincts.get(LINT)?.id ?? -1, { action: 'Use `npm run test` (changed in the CLI).' });
    const stale = await send('/api/instincts/edit', { pattern: LINT, action: 'Use `npm test -- --run`.', was });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toBe(
      '“when you lint” was changed while you edited it: it now reads “when you lint: Use `npm run test` (changed in the CLI).”. Open it again to edit what it says now; nothing was saved.',
    );
    expect(store.instincts.get(LINT)?.action).toBe('Use `npm run test` (changed in the CLI).');
    const fresh = await send('/api/instincts/edit', {
      pattern: LINT,
      action: 'Use `npm test -- --run`.',
      was: { ...was, action: 'Use `npm run test` (changed in the CLI).' },
    });
    expect(fresh.status).toBe(200);
    expect(store.instincts.get(LINT)?.action).toBe('Use `npm test -- --run`.');
  });

  it('answers 404 for an unknown pattern and 400 for an empty trigger or a body that is not an object, changing nothing', async () => {
    const stored = store.instincts.get(KEY);
    const missing = await send('/api/instincts/edit', { pattern: 'pref:nope', trigger: 'when x' });
    expect(missing).toEqual({ status: 404, body: { error: 'Not found: pref:nope' } });
    for (const path of ['/api/instincts/forget', '/api/instincts/promote', '/api/instincts/unpromote'])
      expect((await send(path, { pattern: 'pref:nope' })).status).toBe(404);
    expect((await send('/api/instincts/alias', { pattern: KEY, target: 'pref:nope' })).status).toBe(404);
    const empty = await send('/api/instincts/edit', { pattern: KEY, trigger: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatch(/^trigger must not be empty/);
    expect((await send('/api/instincts/edit', { pattern: KEY })).body.error).toMatch(/^none of trigger, action and title was given/);
    expect((await send('/api/instincts/edit', '[1, 2]')).status).toBe(400);
    expect((await send('/api/instincts/edit', 'not json')).body.error).toBe('The body must be a JSON object.');
    expect((await send('/api/instincts/unpromote', { pattern: KEY })).body).toEqual({ error: `"${KEY}" is not a conviction.` });
    expect(store.instincts.get(KEY)).toEqual(stored);
    expect(sources(KEY)).toEqual([['create', '']]);
  });

  it('refuses a change without the page Origin, or by GET', async () => {
    for (const path of ['/api/instincts/edit', '/api/instincts/forget', '/api/instincts/promote', '/api/facts/invalidate']) {
      expect((await send(path, { pattern: KEY, trigger: 'x y' }, { Origin: 'http://evil.example' })).status).toBe(403);
      const bare = await fetch(`${dash.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...auth },
        body: JSON.stringify({ pattern: KEY, trigger: 'x y' }),
      });
      expect(bare.status).toBe(403);
      expect((await fetch(`${dash.url}${path}`, { headers: auth })).status).toBe(404);
    }
    expect(store.instincts.get(KEY)?.trigger).toBe('when you run the tests');
  });

  it('edits, promotes, un-promotes, merges and forgets, each logged as the dashboard whatever the body says', async () => {
    const edited = await send('/api/instincts/edit', { pattern: KEY, action: 'Use `npm test -- --run`.', source: 'cli' });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      changed: ['action', 'title'],
      action: 'Use `npm test -- --run`.',
      before: { action: 'Use `npm test`.' },
    });
    expect((await send('/api/instincts/promote', { pattern: KEY })).body).toMatchObject({ pattern: KEY, eligible: false });
    expect((await send('/api/instincts/promote', { pattern: KEY })).status).toBe(400);
    expect((await send('/api/instincts/unpromote', { pattern: KEY })).status).toBe(200);
    const merged = await send('/api/instincts/alias', { pattern: DUPLICATE, target: KEY });
    expect(merged.body).toEqual({ aliased: DUPLICATE, target: KEY, evidence_moved: 1 });
    expect(sources(KEY).filter(([kind]) => kind !== 'create')).toEqual([
      ['edit', 'dashboard'],
      ['promote', 'dashboard'],
      ['unpromote', 'dashboard'],
      ['alias', 'dashboard'],
    ]);
    const forgotten = await send('/api/instincts/forget', { pattern: KEY, source: 'mcp' });
    expect(forgotten.body).toMatchObject({ pattern: KEY, evidence: 2, action: 'Use `npm test -- --run`.' });
    expect(store.instincts.get(KEY)).toBeUndefined();
    expect(store.instincts.forgottenEvents(KEY).at(-1)).toMatchObject({ kind: 'forget', source: 'dashboard' });
    expect((await send('/api/instincts/forget', { pattern: KEY })).status).toBe(404);
  });
});

describe('correcting facts and memories from the dashboard', () => {
  it("lists a project's facts, retracts one (409 the second time), supersedes another, and forgets a memory", async () => {
    const add = (target: string) =>
      invoke(
        addFact,
        { store, env: {} },
        { source: 'webapp', relation: 'uses', target, targetType: 'library', description: `webapp uses ${target}`, project: PROJECT },
      ).fact.id;
    const jest = add('jest');
    const vite = add('vite');
    const listed = await fetch(`${dash.url}/api/projects/${PROJECT}/facts`, { headers: auth });
    expect(((await listed.json()) as { facts: { id: number }[] }).facts.map((f) => f.id).sort()).toEqual([jest, vite].sort());
    // Not a project's fingerprint: refused as /api/projects/<it> refuses it, not an empty list.
    for (const junk of ['junk', 'webapp', `${PROJECT}0`]) {
      const refused = await fetch(`${dash.url}/api/projects/${junk}/facts`, { headers: auth });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { error: string }).error).toMatch(/^project must be a project fingerprint \(16 hex characters\)/);
    }

    const retracted = await send('/api/facts/invalidate', { id: jest, by: 'cli' });
    expect(retracted.status).toBe(200);
    expect(retracted.body.superseded).toMatchObject({ id: jest, expired_reason: 'retracted', metadata: { closed_by: 'dashboard' } });
    const again = await send('/api/facts/invalidate', { id: jest });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/^Fact \d+ is no longer current \(retracted\)/);
    expect((await send('/api/facts/invalidate', { id: 99_999 })).status).toBe(404);
    expect((await send('/api/facts/invalidate', { id: 'one' })).status).toBe(400);

    const replaced = await send('/api/facts/supersede', { id: vite, description: 'webapp builds with rolldown', target: 'rolldown' });
    expect(replaced.body.superseded).toMatchObject({ id: vite, expired_reason: 'superseded', metadata: { closed_by: 'dashboard' } });
    const now = await fetch(`${dash.url}/api/projects/${PROJECT}/facts`, { headers: auth });
    expect(((await now.json()) as { facts: { target: string }[] }).facts.map((f) => f.target)).toEqual(['rolldown']);

    addDocuments(store, [{ id: 'note-1', text: 'the staging password rotates monthly', collection: 'memories' }]);
    expect((await send('/api/memories/forget', { ids: ['note-1'], collection: 'memories' })).body).toEqual({
      deleted: 1,
      requested: 1,
      missing: [],
    });
    expect((await send('/api/memories/forget', { ids: [] })).status).toBe(400);
  });
});

import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HomunculusError } from '../core/errors.js';
import { answer } from './respond.js';

const app = new Hono();
app.get('/busy', (c) => answer(c, () => Promise.reject(Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }))));
app.get('/readonly', (c) =>
  answer(c, () => {
    throw new HomunculusError('readonly', 'The store /h/db cannot be written.', { hint: 'Make /h writable by you.' });
  }),
);
app.get('/bug', (c) => answer(c, () => Promise.reject(new Error('a bug of ours'))));

describe('answer', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says a database another process holds as a 503 the page can show', async () => {
    const res = await app.request('/busy');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toMatch(/^The database is busy/);
  });

  it('says a failure of ours with its fix, not "see the terminal"', async () => {
    const res = await app.request('/readonly');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ error: 'The store /h/db cannot be written. Make /h writable by you.' });
  });

  it('tells the terminal what a 500 was, as the page says it does', async () => {
    const told = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const res = await app.request('/bug');
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toBe('The dashboard could not answer; the terminal that runs it says why.');
    expect(String(told.mock.calls[0]?.[0])).toMatch(/^homunculus dashboard: GET \/bug failed: Error: a bug of ours/);
  });
});

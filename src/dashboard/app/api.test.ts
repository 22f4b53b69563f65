import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api } from './api.js';

afterEach(() => vi.unstubAllGlobals());

describe('api', () => {
  it('says the server stopped, with the fix, where the browser says only "Failed to fetch"', async () => {
    vi.stubGlobal('localStorage', { getItem: () => 'key' });
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const refused = api('/api/overview').catch((err: unknown) => err);
    await expect(refused).resolves.toBeInstanceOf(ApiError);
    await expect(refused).resolves.toMatchObject({ status: 0, message: expect.stringMatching(/does not answer.*homunculus dashboard/) });
  });

  it("passes on the server's own error with its status", async () => {
    vi.stubGlobal('localStorage', { getItem: () => null });
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify({ error: 'No such instinct.' }), { status: 404 })));
    await expect(api('/api/instinct/x')).rejects.toMatchObject({ status: 404, message: 'No such instinct.' });
  });
});

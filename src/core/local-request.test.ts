import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { checkRequestHead } from './local-request.js';
import { bearerMatches, serverToken } from './token.js';

const TOKEN = 'a'.repeat(43);
const ok = { url: '/mcp', host: '127.0.0.1:7421', origin: undefined, authorization: `Bearer ${TOKEN}` };

describe('checking a request before its body is read', () => {
  it('lets through our own host, origin and token', () => {
    expect(checkRequestHead(ok, 7421, TOKEN)).toEqual({ ok: true, path: '/mcp' });
    expect(checkRequestHead({ ...ok, host: 'localhost:7421', origin: 'http://localhost:7421' }, 7421, TOKEN)).toMatchObject({ ok: true });
    expect(checkRequestHead({ ...ok, url: 'http://127.0.0.1:7421/mcp?x=1' }, 7421, TOKEN)).toEqual({ ok: true, path: '/mcp' });
  });

  it.each([
    ['a rebinding Host', { host: 'evil.example:7421' }, 403],
    ['no Host', { host: undefined }, 403],
    ['our name on another port', { host: '127.0.0.1:80' }, 403],
    ['a foreign Origin', { origin: 'http://evil.example' }, 403],
    ['localhost on another port as Origin', { origin: 'http://localhost:3000' }, 403],
    ['the null Origin of a sandboxed page', { origin: 'null' }, 403],
    ['an absolute URI for another host', { url: 'http://evil.example/mcp' }, 400],
    ['an absolute URI of another scheme', { url: 'file:///etc/passwd' }, 400],
    ['an asterisk target', { url: '*' }, 400],
    ['no token', { authorization: undefined }, 401],
    ['a wrong token', { authorization: `Bearer ${'b'.repeat(43)}` }, 401],
    ['a token of another length', { authorization: 'Bearer abc' }, 401],
    ['basic credentials', { authorization: `Basic ${TOKEN}` }, 401],
  ])('refuses %s', (_what, change, status) => {
    expect(checkRequestHead({ ...ok, ...change }, 7421, TOKEN)).toMatchObject({ ok: false, status });
  });
});

describe('the server token', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => (dir = tempDir('homunculus-token-')));
  afterEach(() => dir.cleanup());

  it('is created once, readable by the user alone, and replaced when others could read it', () => {
    const path = join(dir.path, 'home', 'server-token');
    const token = serverToken(path);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(serverToken(path)).toBe(token);
    expect(bearerMatches(`Bearer ${token}`, token)).toBe(true);
    chmodSync(path, 0o644);
    const replaced = serverToken(path);
    expect(replaced).not.toBe(token);
    expect(readFileSync(path, 'utf8').trim()).toBe(replaced);
    writeFileSync(path, 'short', { mode: 0o600 });
    expect(serverToken(path)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

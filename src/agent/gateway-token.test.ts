import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BCRYPT_COST, TokenVerifier, bearerOf, createToken, tokenShapeProblem } from './gateway-token.js';

const dir = mkdtempSync(join(tmpdir(), 'hom-token-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tokenShapeProblem and bearerOf', () => {
  it('refuses placeholders and malformed tokens before any check', () => {
    for (const t of [undefined, '', 'undefined', 'NULL', 'null ', 'short']) expect(tokenShapeProblem(t)).toBeDefined();
    expect(tokenShapeProblem('a'.repeat(43))).toBeUndefined();
    expect(bearerOf('Bearer abc')).toBe('abc');
    expect(bearerOf('Bearer ')).toBe('');
    expect(bearerOf('Basic abc')).toBeUndefined();
    expect(bearerOf(undefined)).toBeUndefined();
  });
});

describe('createToken and TokenVerifier', () => {
  it('stores only a cost-12 bcrypt hash (0600), checks bcrypt once, then recognises the token fast', async () => {
    const path = join(dir, 'slow.bcrypt');
    const token = await createToken(path);
    const stored = readFileSync(path, 'utf8');
    expect(stored).not.toContain(token);
    expect(stored).toMatch(new RegExp(`^\\$2b\\$${BCRYPT_COST}\\$`));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const v = new TokenVerifier(path);
    let t = performance.now();
    expect(await v.verify(token)).toEqual({ ok: true });
    const first = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < 100; i++) expect((await v.verify(token)).ok).toBe(true);
    const hundred = performance.now() - t;
    expect(hundred).toBeLessThan(first);
    expect((await v.verify('b'.repeat(43))).ok).toBe(false);
  }, 30_000);

  it('says 503 with the fix when no token was made, and follows a rotation', async () => {
    const path = join(dir, 'rotated.bcrypt');
    const v = new TokenVerifier(path);
    expect(await v.verify('c'.repeat(43))).toMatchObject({ ok: false, status: 503, reason: /agent token/ });
    const old = await createToken(path, 4);
    expect((await v.verify(old)).ok).toBe(true);
    const fresh = await createToken(path, 4);
    expect(await v.verify(old)).toMatchObject({ ok: false, status: 401 });
    expect((await v.verify(fresh)).ok).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { HomunculusError, NotFoundError, UsageError } from './errors.js';
import { refusalOf } from './refusal.js';

describe('refusalOf', () => {
  it('gives the client its own mistakes, the missing and the conflicting, with their words', () => {
    expect(refusalOf(new UsageError('limit must be a whole number'))).toEqual({ status: 400, error: 'limit must be a whole number' });
    expect(refusalOf(new NotFoundError('instinct x'))).toEqual({ status: 404, error: 'Not found: instinct x' });
    expect(refusalOf(new HomunculusError('fact_closed', 'Fact 3 is already closed.'))).toEqual({
      status: 409,
      error: 'Fact 3 is already closed.',
    });
    // A forget by a key merged into another: the merged instinct refuses it, with its fix.
    expect(refusalOf(new HomunculusError('merged', 'a was merged into b.', { hint: 'Nothing was forgotten.' }))).toEqual({
      status: 409,
      error: 'a was merged into b. Nothing was forgotten.',
    });
  });

  it('says a failure of ours with its fix, and a database another process holds, as a 503', () => {
    const down = new HomunculusError('model_failed', 'The model failed: HTTP 500.', { hint: 'Check the model server.' });
    expect(refusalOf(down)).toEqual({ status: 503, error: 'The model failed: HTTP 500. Check the model server.' });
    const locked = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(refusalOf(locked)?.status).toBe(503);
    expect(refusalOf(locked)?.error).toMatch(/^The database is busy/);
  });

  it('leaves a bug to the server (a 500 it logs), whatever was thrown', () => {
    expect(refusalOf(new Error('a bug of ours'))).toBeUndefined();
    expect(refusalOf(undefined)).toBeUndefined();
    expect(refusalOf('text')).toBeUndefined();
  });
});

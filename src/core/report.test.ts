import { describe, expect, it } from 'vitest';
import { reportError } from './report.js';

function report(err: unknown, json = false): { code: number; out: string; err: string } {
  let out = '';
  let errText = '';
  const streams = { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (errText += t) } };
  const code = reportError(err, json, streams, {});
  return { code, out, err: errText };
}

const enospc = (): Error =>
  Object.assign(new Error("ENOSPC: no space left on device, write '/h/.hom/homunculus.db-wal'"), {
    code: 'ENOSPC',
    path: '/h/.hom/homunculus.db-wal',
  });

describe('reportError', () => {
  it('says the disk is full and what to do, not an unexpected error to report', () => {
    const r = report(enospc());
    expect(r.code).toBe(1);
    expect(r.err).toContain('homunculus: The disk is full (ENOSPC writing /h/.hom/homunculus.db-wal).');
    expect(r.err).toMatch(/fix: Free some space on it .*then run the command again/);
    expect(r.err).not.toMatch(/unexpected|report it/);
  });

  it('gives the disk-full code with --json', () => {
    expect(JSON.parse(report(enospc(), true).out)).toMatchObject({ code: 'disk_full', error: expect.stringMatching(/disk is full/) });
  });

  it('still reports an error it cannot explain as unexpected', () => {
    expect(report(new Error('boom')).err).toMatch(/unexpected error: boom[\s\S]*report it/);
  });
});

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

  it('says a file that cannot be read and how to fix it, not an unexpected error (exit 1)', () => {
    const fsError = (code: string, message: string, path?: string) => Object.assign(new Error(message), { code, syscall: 'open', path });
    const denied = report(fsError('EACCES', "EACCES: permission denied, open 'notes.jsonl'", 'notes.jsonl'));
    expect(denied.code).toBe(1);
    expect(denied.err).toContain('homunculus: Permission denied: notes.jsonl (EACCES).');
    expect(denied.err).toMatch(/fix: Check its permissions \(ls -ld 'notes.jsonl'\)/);
    expect(report(fsError('EIO', 'EIO: i/o error, read')).err).toMatch(
      /Input\/output error on a file being read \(EIO\)[\s\S]*fix: Give a regular file/,
    );
    expect(report(fsError('EISDIR', 'EISDIR', '/a/dir')).err).toMatch(/\/a\/dir is a folder where a file was expected[\s\S]*fix:/);
    expect(report(fsError('ENOTDIR', 'ENOTDIR', '/a/file/x')).err).toMatch(/a part of this path is a file, not a folder[\s\S]*fix:/);
    for (const r of [denied, report(fsError('ENOTDIR', 'ENOTDIR', '/x'))]) expect(r.err).not.toMatch(/unexpected|report it/);
    expect(JSON.parse(report(fsError('EACCES', 'EACCES', '/x'), true).out)).toMatchObject({ code: 'permission_denied' });
  });

  it('leaves a permission error on no file (a port, a process) unexplained', () => {
    expect(report(Object.assign(new Error('listen EACCES: permission denied 0.0.0.0:80'), { code: 'EACCES' })).err).toMatch(
      /unexpected error/,
    );
  });
});

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLock, lockHolder, processAlive } from './lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hom-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('acquireLock', () => {
  it('gives the lock to one holder until it is released', () => {
    const path = join(dir, 'locks', 'observer.lock');
    const first = acquireLock(path, { staleMs: 60_000 });
    expect(first).toBeTypeOf('function');
    expect(readFileSync(path, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    expect(acquireLock(path, { staleMs: 60_000 })).toBeUndefined();
    first?.();
    expect(existsSync(path)).toBe(false);
    const second = acquireLock(path, { staleMs: 60_000 });
    expect(second).toBeTypeOf('function');
    second?.();
  });

  it('reclaims a lock whose process is gone', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid as number;
    await new Promise((resolve) => child.on('exit', resolve));
    expect(processAlive(pid)).toBe(false);
    const path = join(dir, 'observer.lock');
    writeFileSync(path, `${pid} 2026-01-01T00:00:00.000Z\n`);
    const release = acquireLock(path, { staleMs: 60_000 });
    expect(release).toBeTypeOf('function');
    expect(readFileSync(path, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    release?.();
  });

  it('reclaims a live holder that stopped refreshing past staleMs, and refresh keeps a lock fresh', () => {
    const path = join(dir, 'observer.lock');
    writeFileSync(path, `${process.ppid} 2026-01-01T00:00:00.000Z\n`);
    expect(acquireLock(path, { staleMs: 60_000 })).toBeUndefined();
    const old = new Date(Date.now() - 120_000);
    utimesSync(path, old, old);
    const release = acquireLock(path, { staleMs: 60_000 });
    expect(release).toBeTypeOf('function');
    utimesSync(path, old, old);
    release?.refresh();
    expect(acquireLock(path, { staleMs: 60_000 })).toBeUndefined();
    release?.();
  });

  it('does not delete a lock that another process reclaimed meanwhile', () => {
    const path = join(dir, 'observer.lock');
    const release = acquireLock(path, { staleMs: 60_000 });
    writeFileSync(path, `${process.ppid} someone-else\n`);
    release?.();
    expect(readFileSync(path, 'utf8')).toContain('someone-else');
  });

  it('treats a garbage lock file from a dead writer as stale', () => {
    const path = join(dir, 'observer.lock');
    writeFileSync(path, 'not a pid');
    const release = acquireLock(path, { staleMs: 60_000 });
    expect(release).toBeTypeOf('function');
    release?.();
  });

  it('treats an empty lock file as held while fresh (its creator has not written its pid yet), then as stale', () => {
    const path = join(dir, 'observer.lock');
    writeFileSync(path, '');
    expect(acquireLock(path, { staleMs: 60_000 })).toBeUndefined();
    const old = new Date(Date.now() - 5000);
    utimesSync(path, old, old);
    const release = acquireLock(path, { staleMs: 60_000 });
    expect(release).toBeTypeOf('function');
    release?.();
  });

  it('lockHolder names a live, fresh holder and nothing else', () => {
    const path = join(dir, 'observer.lock');
    expect(lockHolder(path, { staleMs: 60_000 })).toBeUndefined();
    const release = acquireLock(path, { staleMs: 60_000 });
    expect(lockHolder(path, { staleMs: 60_000 })).toBe(process.pid);
    const old = new Date(Date.now() - 120_000);
    utimesSync(path, old, old);
    expect(lockHolder(path, { staleMs: 60_000 })).toBeUndefined();
    release?.();
    writeFileSync(path, '999999999 gone\n');
    expect(lockHolder(path, { staleMs: 60_000 })).toBeUndefined();
  });
});

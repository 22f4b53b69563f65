import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProcessAlive, lockPath, readLock, tryLock, withLock } from './lock.js';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hom-lock-'));
  path = lockPath(join(dir, 'locks'), 'learn');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const foreign = (pid: number, startedAt = new Date().toISOString()): void => {
  mkdirSync(join(dir, 'locks'), { recursive: true });
  writeFileSync(path, JSON.stringify({ pid, started_at: startedAt }));
};

describe('tryLock', () => {
  it('creates the directory and the lock file with our pid, and releases it', () => {
    const lock = tryLock(path, { purpose: 'test' });
    expect(lock).toBeDefined();
    expect(readLock(path)).toMatchObject({ pid: process.pid, purpose: 'test' });
    lock?.release();
    expect(existsSync(path)).toBe(false);
  });

  it('is re-entrant for the holder', () => {
    const a = tryLock(path);
    expect(tryLock(path)).toBeDefined();
    a?.release();
  });

  it('refuses while a live process holds the lock', () => {
    foreign(424242);
    expect(tryLock(path, { isAlive: () => true })).toBeUndefined();
    expect(readLock(path)?.pid).toBe(424242);
  });

  it('reclaims a lock whose pid is dead', () => {
    foreign(424242);
    const lock = tryLock(path, { isAlive: () => false });
    expect(lock).toBeDefined();
    expect(readLock(path)?.pid).toBe(process.pid);
  });

  it('reclaims a lock older than staleMs even if the pid looks alive', () => {
    foreign(424242);
    const old = new Date(Date.now() - 3 * 3600_000);
    utimesSync(path, old, old);
    expect(tryLock(path, { isAlive: () => true, staleMs: 3600_000 })).toBeDefined();
  });

  it('treats a fresh unreadable lock as held and an old one as stale', () => {
    mkdirSync(join(dir, 'locks'), { recursive: true });
    writeFileSync(path, 'not json');
    expect(tryLock(path)).toBeUndefined();
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    expect(tryLock(path)).toBeDefined();
  });

  it('transfers the lock to another pid; release then leaves it alone', () => {
    const lock = tryLock(path);
    lock?.transfer(424242);
    expect(readLock(path)?.pid).toBe(424242);
    lock?.release();
    expect(existsSync(path)).toBe(true);
    expect(JSON.parse(readFileSync(path, 'utf8')).pid).toBe(424242);
  });

  it('never lets two processes hold it at once', async () => {
    const script = `
      import { tryLock } from ${JSON.stringify(new URL('./lock.ts', import.meta.url).pathname.replace(/\.ts$/, '.js').replace('/src/', '/dist/'))};
      const lock = tryLock(${JSON.stringify(path)});
      process.stdout.write(lock ? 'won' : 'lost');
      setTimeout(() => {}, 300);
    `;
    const runs = Array.from({ length: 4 }, () =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.on('close', () => resolve(out));
      }),
    );
    const results = await Promise.all(runs);
    expect(results.filter((r) => r === 'won')).toHaveLength(1);
    // All four have exited now: the lock names a dead pid and is reclaimable.
    expect(tryLock(path)).toBeDefined();
  });
});

describe('withLock and isProcessAlive', () => {
  it('runs the function only when the lock is free', async () => {
    expect(await withLock(path, () => 7)).toEqual({ ran: true, value: 7 });
    expect(existsSync(path)).toBe(false);
    foreign(424242);
    expect(await withLock(path, () => 7, { isAlive: () => true })).toEqual({ ran: false });
  });

  it('knows this process is alive and nonsense pids are not', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(-1)).toBe(false);
    expect(isProcessAlive(0)).toBe(false);
  });
});

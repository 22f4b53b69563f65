/**
 * A folder the file system will not let us write in (read-only to this user, or a read-only
 * disk). Root writes anywhere a test could chmod, so the refusal is the file system's own
 * error, raised for one folder.
 */
import type * as NodeFs from 'node:fs';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { writeFileAtomic } from './fs.js';
import { acquireLock } from './lock.js';

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const writeFileSync = (path: unknown, ...rest: unknown[]): void => {
    if (String(path).includes('/locked/'))
      throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), { code: 'EACCES' });
    (fs.writeFileSync as (...a: unknown[]) => void)(path, ...rest);
  };
  const openSync = (path: unknown, ...rest: unknown[]): number => {
    if (String(path).includes('/locked/'))
      throw Object.assign(new Error(`EACCES: permission denied, open '${String(path)}'`), { code: 'EACCES' });
    return (fs.openSync as (...a: unknown[]) => number)(path, ...rest);
  };
  return { ...fs, default: { ...fs, writeFileSync, openSync }, writeFileSync, openSync };
});

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir('homunculus-fs-denied-')));
afterEach(() => dir.cleanup());

describe('writeFileAtomic in a folder that refuses writes', () => {
  it('says which folder and the fix, and leaves the file as it was', () => {
    const locked = join(dir.path, 'locked');
    const target = join(locked, 'CLAUDE.md');
    writeFileAtomic(join(dir.path, 'free.md'), 'fine');
    expect(readFileSync(join(dir.path, 'free.md'), 'utf8')).toBe('fine');
    // Made before the refusal applies: the real fs, through a path the mock lets by.
    writeFileSync(join(dir.path, 'free.md'), 'fine');
    expect(() => writeFileAtomic(target, 'new')).toThrow(
      expect.objectContaining({
        code: 'not_writable',
        message: `Cannot write ${target}: its folder ${locked} is not writable (EACCES).`,
        hint: `make the folder writable (chmod u+w ${locked}), or choose a file elsewhere`,
      }),
    );
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(locked)).toEqual([]);
  });

  it('a lock that cannot be taken there says so too (sync on a read-only store said "unexpected error")', () => {
    const lock = join(dir.path, 'locked', 'observer.lock');
    expect(() => acquireLock(lock, { staleMs: 60_000 })).toThrow(
      expect.objectContaining({ code: 'not_writable', message: expect.stringMatching(/^Cannot write .*observer\.lock: its folder/) }),
    );
  });
});

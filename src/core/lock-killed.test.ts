import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { acquireLock } from './lock.js';

// A creator killed while writing its pid: every write to a file creates it empty, then "dies".
const dying = vi.hoisted(() => ({ on: false }));
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof fs>();
  const die = (): never => {
    throw new Error('killed while writing the pid');
  };
  return {
    ...real,
    writeSync: (...args: Parameters<typeof real.writeSync>) => (dying.on ? die() : real.writeSync(...args)),
    writeFileSync: (...args: Parameters<typeof real.writeFileSync>) => {
      if (!dying.on) return real.writeFileSync(...args);
      real.closeSync(real.openSync(args[0] as string, 'wx'));
      return die();
    },
  };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hom-lock-killed-'));
});
afterEach(() => {
  dying.on = false;
  rmSync(dir, { recursive: true, force: true });
});

describe('a lock whose creator died while writing its pid', () => {
  it('does not block the next run', () => {
    const path = join(dir, 'learn.lock');
    dying.on = true;
    expect(() => acquireLock(path, { staleMs: 60_000 })).toThrow('killed while writing the pid');
    dying.on = false;
    expect(readdirSync(dir)).not.toContain('learn.lock');
    const release = acquireLock(path, { staleMs: 60_000 });
    expect(release).toBeTypeOf('function');
    release?.();
  });
});

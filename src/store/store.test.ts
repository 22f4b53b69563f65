import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../test-support/cli.js';
import { openStore } from './store.js';

describe('openStore', () => {
  it('keeps the home and its database to their owner, whatever the umask (they hold every prompt and turn)', () => {
    const dir = tempDir();
    try {
      const home = join(dir.path, 'home');
      mkdirSync(home, { mode: 0o755 });
      chmodSync(home, 0o755);
      const store = openStore({ home });
      store.close();
      expect(statSync(home).mode & 0o777).toBe(0o700);
      expect(statSync(join(home, 'homunculus.db')).mode & 0o077).toBe(0);
    } finally {
      dir.cleanup();
    }
  });

  it('refuses an empty database file beside learned instincts (truncated), and leaves it as it is', () => {
    const dir = tempDir();
    try {
      const home = join(dir.path, 'home');
      openStore({ home }).close();
      mkdirSync(join(home, 'instincts', 'personal'), { recursive: true });
      writeFileSync(join(home, 'instincts', 'personal', 'pref-x.md'), '# a rule\n');
      writeFileSync(join(home, 'homunculus.db'), '');
      expect(() => openStore({ home })).toThrow(/homunculus\.db is empty, while the home holds 1 learned instincts: it was truncated/);
      expect(readFileSync(join(home, 'homunculus.db'), 'utf8')).toBe('');
      // A home with nothing learned yet opens as a fresh store.
      const fresh = join(dir.path, 'fresh');
      mkdirSync(fresh);
      writeFileSync(join(fresh, 'homunculus.db'), '');
      openStore({ home: fresh }).close();
    } finally {
      dir.cleanup();
    }
  });
});

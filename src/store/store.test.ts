import { chmodSync, mkdirSync, statSync } from 'node:fs';
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
});

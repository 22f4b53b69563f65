import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../../test-support/store.js';
import { drainSpool } from './drain.js';
import { spoolDir, spoolObservation, spooledCount } from './write.js';

describe('spool and drain', () => {
  let store: TestStore;
  beforeEach(() => (store = testStore()));
  afterEach(() => store.cleanup());
  const obs = (id: string) => ({
    source: 'claude-code',
    session_id: 's',
    tool_use_id: id,
    ts: '2026-01-01T00:00:00Z',
    tool: 'Bash',
    input: 'make',
  });

  it('moves spooled observations into the store once, skipping malformed files, and leaves nothing behind', () => {
    const home = store.paths.home;
    spoolObservation(home, obs('a'));
    spoolObservation(home, obs('a'));
    spoolObservation(home, obs('b'));
    writeFileSync(join(spoolDir(home), '0-bad.json'), 'not json\n{"source": 1}\n');
    const inflight = `.${Date.now()}-1-0-abc.json.tmp`;
    writeFileSync(join(spoolDir(home), inflight), '{}');
    writeFileSync(join(spoolDir(home), '.123-1-0-abc.json.tmp'), '{}');
    expect(spooledCount(home)).toBe(4);
    expect(drainSpool(store, home)).toEqual({ files: 4, inserted: 2, duplicates: 1, malformed: 2 });
    // A file still being written stays; one abandoned long ago is cleared.
    expect(readdirSync(spoolDir(home))).toEqual([inflight]);
    expect(drainSpool(store, home)).toEqual({ files: 0, inserted: 0, duplicates: 0, malformed: 0 });
  });

  it('drains nothing when there is no spool, and creates the spool on first write', () => {
    expect(drainSpool(store, store.paths.home)).toEqual({ files: 0, inserted: 0, duplicates: 0, malformed: 0 });
    mkdirSync(store.paths.home, { recursive: true });
    expect(spoolObservation(store.paths.home, obs('c'))).toMatch(/spool\/\d+-\d+-\d+-[a-z0-9]+\.json$/);
  });

  it('creates a missing home, its spool and every spooled file readable by the owner alone', () => {
    const home = join(store.paths.home, 'fresh');
    const file = spoolObservation(home, obs('d'));
    expect([statSync(home).mode & 0o777, statSync(spoolDir(home)).mode & 0o777, statSync(file).mode & 0o777]).toEqual([
      0o700, 0o700, 0o600,
    ]);
  });
});

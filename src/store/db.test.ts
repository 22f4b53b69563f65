import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HomunculusError } from '../core/errors.js';
import { tempDir } from '../test-support/cli.js';
import { PYTHON, hasPython } from '../test-support/shared.js';
import { type Db, cachedStatement, openDatabase } from './db.js';
import { migrate, schemaVersion } from './migrations.js';
import { MIGRATIONS } from './schema.js';

let dir: ReturnType<typeof tempDir>;
beforeEach(() => (dir = tempDir()));
afterEach(() => dir.cleanup());

describe('openDatabase', () => {
  it('creates a WAL database with foreign keys and the latest schema', () => {
    const db = openDatabase(join(dir.path, 'h.db'));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(Number(db.pragma('busy_timeout', { simple: true }))).toBeGreaterThanOrEqual(5000);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    db.close();
  });

  it('makes a new store appear already in WAL mode, so processes creating it at once never wait on each other', async () => {
    // A watcher thread reads each new path as soon as it exists: a store shown in rollback mode
    // (empty, or a header without WAL's version bytes) is what two creators deadlocked on.
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const paths = Array.from({ length: 30 }, (_, i) => join(dir.path, `s${i}.db`));
    const watcher = new Worker(
      `const { workerData, parentPort } = require('node:worker_threads');
       const { openSync, readSync, closeSync } = require('node:fs');
       const seen = [];
       const header = Buffer.alloc(20);
       while (Atomics.load(workerData.stop, 0) === 0) {
         for (const path of workerData.paths) {
           let fd;
           try { fd = openSync(path, 'r'); } catch { continue; }
           const n = readSync(fd, header, 0, 20, 0);
           closeSync(fd);
           if (n < 20 || header[18] !== 2) seen.push(path);
         }
       }
       parentPort.postMessage(seen);`,
      { eval: true, workerData: { stop, paths } },
    );
    const seen = new Promise<string[]>((resolve) => watcher.once('message', resolve));
    await new Promise((resolve) => watcher.once('online', resolve));
    for (const path of paths) openDatabase(path, { migrate: false }).close();
    Atomics.store(stop, 0, 1);
    expect(await seen).toEqual([]);
    await watcher.terminate();
    expect(readdirSync(dir.path).filter((f) => f.includes('.new-'))).toEqual([]);
  });

  it('refuses a file that is not SQLite and leaves it byte for byte as it was', () => {
    const path = join(dir.path, 'h.db');
    const junk = 'this is not a database, it is a grocery list\n'.repeat(20);
    writeFileSync(path, junk);
    expect(() => openDatabase(path)).toThrow(HomunculusError);
    expect(() => openDatabase(path)).toThrow(/not a readable SQLite database/);
    expect(readFileSync(path, 'utf8')).toBe(junk);
  });

  it('refuses a SQLite file whose pages are corrupt without overwriting it', () => {
    const path = join(dir.path, 'h.db');
    const db = openDatabase(path);
    db.pragma('journal_mode = DELETE');
    db.close();
    const bytes = readFileSync(path);
    bytes.fill(0xab, 100, 4096 * 2);
    writeFileSync(path, bytes);
    const before = readFileSync(path);
    expect(() => openDatabase(path)).toThrow(HomunculusError);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it.runIf(hasPython('a second SQLite client beside the store (store/db.test.ts)'))(
    'keeps its locks when this process opens the database again: another client closing it leaves the write-ahead log alone',
    () => {
      const path = join(dir.path, 'h.db');
      const held = openDatabase(path);
      held.prepare('CREATE TABLE t (x)').run();
      held.prepare('INSERT INTO t VALUES (1)').run();
      // A second open in the same process (each worker thread of `agent serve` makes one).
      openDatabase(path).close();
      // Python's sqlite3, closing cleanly, deletes the log when it believes it is the last connection.
      const other = 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); d.execute("SELECT COUNT(*) FROM t").fetchall(); d.close()';
      expect(spawnSync(PYTHON, ['-c', other, path], { encoding: 'utf8' }).stderr).toBe('');
      expect(existsSync(`${path}-wal`)).toBe(true);
      expect(held.prepare('SELECT COUNT(*) AS n FROM t').get()).toEqual({ n: 1 });
      held.close();
    },
  );

  it('refuses a database made by a newer homunculus', () => {
    const path = join(dir.path, 'h.db');
    const db = openDatabase(path);
    db.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    db.close();
    expect(() => openDatabase(path)).toThrow(/newer than this homunculus understands/);
  });
});

describe('migrations', () => {
  it('upgrades a database made by an older schema in place and keeps its rows', () => {
    const path = join(dir.path, 'old.db');
    const old = openDatabase(path, { migrations: MIGRATIONS.slice(0, 1) });
    expect(schemaVersion(old)).toBe(1);
    old
      .prepare(
        `INSERT INTO instincts (key, category, confidence, evidence, first_seen, last_seen) VALUES ('pref:pkg=pnpm', 'preference', 0.5, 3, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')`,
      )
      .run();
    old
      .prepare(`INSERT INTO observations (source, session_id, tool_use_id, ts) VALUES ('claude-code', 's1', 't1', '2026-01-01T00:00:00Z')`)
      .run();
    old.close();

    const db = openDatabase(path);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT key, evidence FROM instincts').all()).toEqual([{ key: 'pref:pkg=pnpm', evidence: 3 }]);
    expect(db.prepare('SELECT COUNT(*) AS n FROM observations').get()).toEqual({ n: 1 });
    // The full-text index added by a later migration covers the rows that existed before it.
    expect(db.prepare("SELECT rowid FROM instincts_fts WHERE instincts_fts MATCH 'pnpm'").all()).toHaveLength(1);
    const applied = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
    expect(applied.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    db.close();
  });

  it('is a no-op when the schema is current', () => {
    const db = openDatabase(join(dir.path, 'h.db'));
    expect(migrate(db, MIGRATIONS)).toBe(MIGRATIONS.length);
    db.close();
  });

  it('rolls back a failing migration completely', () => {
    const path = join(dir.path, 'h.db');
    const broken = [
      ...MIGRATIONS,
      {
        version: MIGRATIONS.length + 1,
        name: 'broken',
        up: (d: Db) => {
          d.exec('CREATE TABLE half (x)');
          throw new Error('boom');
        },
      },
    ];
    expect(() => openDatabase(path, { migrations: broken })).toThrow('boom');
    const db = openDatabase(path, { migrate: false });
    expect(schemaVersion(db)).toBe(0);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined();
    db.close();
    expect(existsSync(path)).toBe(true);
  });
});

describe('cachedStatement', () => {
  it('prepares a statement once per handle, with raw rows kept apart from objects', () => {
    const a = openDatabase(join(dir.path, 'a.db'), { migrate: false });
    const b = openDatabase(join(dir.path, 'b.db'), { migrate: false });
    try {
      const sql = 'SELECT 1 AS one';
      expect(cachedStatement(a, sql)).toBe(cachedStatement(a, sql));
      expect(cachedStatement(b, sql)).not.toBe(cachedStatement(a, sql));
      expect(cachedStatement(a, sql).get()).toEqual({ one: 1 });
      expect(cachedStatement(a, sql, { raw: true }).get()).toEqual([1]);
      // The raw variant does not change what the plain one returns.
      expect(cachedStatement(a, sql).get()).toEqual({ one: 1 });
    } finally {
      a.close();
      b.close();
    }
  });
});

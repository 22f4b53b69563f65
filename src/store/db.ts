/**
 * Opening the one SQLite database: WAL, busy timeout, foreign keys, migrations.
 * A file that is not SQLite is reported and never touched.
 */
import Database from 'better-sqlite3';
import { linkSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { HomunculusError } from '../core/errors.js';
import { type Migration, migrate } from './migrations.js';
import { MIGRATIONS } from './schema.js';
import { ensureDir } from '../core/fs.js';

export type Db = Database.Database;

const BUSY_TIMEOUT_MS = 10_000;

export interface OpenOptions {
  /** Run pending migrations (default true). */
  migrate?: boolean;
  migrations?: readonly Migration[];
  readonly?: boolean;
}

/**
 * A file too short to be a database is refused before SQLite could take it for an empty one.
 * Only its size is read: opening and closing the file here would drop every lock this process's
 * SQLite connections hold on it (POSIX locks belong to the process, and any close of the file
 * releases them all), letting another process delete the write-ahead log under them. SQLite
 * itself checks the header (SQLITE_NOTADB below).
 */
function assertSqliteFile(path: string, size: number | undefined): void {
  if (size !== undefined && size > 0 && size < 100) throw corruptError(path);
}

/** The first thing an integrity check found, without SQLite's "*** in database main ***" heading. */
export const integrityProblem = (integrity: string): string =>
  (integrity.split('\n').find((l) => l.trim() && !/^\*\*\* in database/.test(l)) ?? integrity).slice(0, 200);

/** How to save what a damaged database still holds (every surface gives the same recipe). */
export const recoverHint = (path: string): string =>
  `Keep a copy (cp "${path}" "${path}.damaged"), then try \`sqlite3 "${path}.damaged" .recover | sqlite3 "${path}.recovered"\` and put the result in its place.`;

/** A database SQLite opens but whose integrity check fails (or a query of which hits a damaged page, `cause`): said before anything is written to it. */
export function damagedError(path: string, integrity: string, cause?: unknown): HomunculusError {
  const found = cause ? `SQLite: ${integrity}` : `integrity check: ${integrityProblem(integrity)}`;
  return new HomunculusError('corrupt_db', `The database file ${path} is damaged (${found}).`, {
    hint: `Nothing was changed. ${recoverHint(path)} \`homunculus doctor\` says what else can be rebuilt.`,
    ...(cause ? { cause } : {}),
  });
}

/** SQLITE_CORRUPT is a database with damaged pages, whose rest may still be read; anything else is no database at all. */
function corruptError(path: string, cause?: unknown): HomunculusError {
  const code = (cause as { code?: string } | null)?.code;
  if (code === 'SQLITE_CORRUPT') return damagedError(path, (cause as Error).message, cause);
  return new HomunculusError('corrupt_db', `The database file ${path} is not a readable SQLite database.`, {
    hint: `Nothing was changed. Move it aside (mv "${path}" "${path}.bad") to start a fresh store, or point --home at another directory.`,
    cause,
  });
}

/** Another process held the database past the busy timeout (a learning run, an import, a long write). */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/**
 * What a SQLite failure means for the user, with the fix: a read-only home, a full disk, a
 * database another process keeps locked. Undefined for anything else.
 */
export function explainDatabaseError(err: unknown, path: string): HomunculusError | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  const dir = dirname(path);
  if (code.startsWith('SQLITE_READONLY') || code === 'SQLITE_PERM') {
    return new HomunculusError('readonly', `The store ${path} cannot be written (the file or its directory is read-only).`, {
      hint: `Make ${dir} and the files in it writable by you (chmod -R u+w "${dir}"), or point --home (or HOMUNCULUS_HOME) at a writable directory.`,
      cause: err,
    });
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return new HomunculusError('db_open', `Cannot open the database ${path}.`, {
      hint: `Check that ${dir} exists and is readable and writable by you, or choose another with --home.`,
      cause: err,
    });
  }
  if (code === 'SQLITE_FULL' || code.startsWith('SQLITE_IOERR')) {
    return new HomunculusError('db_io', `Writing ${path} failed (${code}): the disk may be full or failing.`, {
      hint: 'Free some space on that disk (df -h), then run the command again; nothing already stored was lost.',
      cause: err,
    });
  }
  if (isBusyError(err)) {
    return new HomunculusError('db_busy', `The database ${path} stayed locked by another process for ${BUSY_TIMEOUT_MS / 1000} s.`, {
      hint: 'A learning run or an import may be writing: wait for it, then run the command again.',
      cause: err,
    });
  }
  if (isCorruptionError(err)) return corruptError(path, err);
  return undefined;
}

function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB';
}

let binding: string | null | undefined;

/**
 * The compiled addon's path, so better-sqlite3 skips the `bindings` package's search of a
 * dozen candidate paths (several milliseconds of every hook's start-up). Undefined when the
 * usual layout is not there; the search then runs as before.
 */
function nativeBinding(): string | undefined {
  if (binding === undefined) {
    try {
      binding = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
    } catch {
      binding = null;
    }
  }
  return binding ?? undefined;
}

/**
 * A new store is made in WAL mode beside its place and linked in, so it never shows in rollback
 * mode: processes creating it at once each held a read lock while switching it to WAL and waited
 * on one another until the busy timeout. Where this fails, the usual switch below still runs.
 */
function createInWal(path: string, addon: string | undefined): void {
  const draft = `${path}.new-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    const db = new Database(draft, addon ? { nativeBinding: addon } : {});
    try {
      db.pragma('journal_mode = WAL');
    } finally {
      db.close();
    }
    linkSync(draft, path);
  } catch {
    // Another process linked its store first (EEXIST), or this step failed: opening below reports real trouble.
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(draft + suffix, { force: true });
  }
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  // One look at the file: its size, or undefined when there is none yet.
  const size = path === ':memory:' ? 0 : statSync(path, { throwIfNoEntry: false })?.size;
  if (path !== ':memory:') {
    assertSqliteFile(path, size);
    if (!options.readonly) ensureDir(dirname(path));
  }
  let db: Db;
  try {
    const addon = nativeBinding();
    if (size === undefined && !options.readonly) createInWal(path, addon);
    db = new Database(path, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
      timeout: BUSY_TIMEOUT_MS,
      ...(addon ? { nativeBinding: addon } : {}),
    });
  } catch (err) {
    if (isCorruptionError(err)) throw corruptError(path, err);
    throw new HomunculusError('db_open', `Cannot open the database ${path}: ${(err as Error).message}`, {
      hint: 'Check that the directory exists and is writable, or choose another with --home.',
      cause: err,
    });
  }
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!options.readonly) {
      if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    if (options.migrate !== false && !options.readonly) migrate(db, options.migrations ?? MIGRATIONS);
  } catch (err) {
    db.close();
    if (isCorruptionError(err)) throw corruptError(path, err);
    throw err;
  }
  return db;
}

const statementCache = new WeakMap<Db, Map<string, Database.Statement>>();

/**
 * A statement prepared once per database handle. Preparing costs tens of microseconds,
 * and a search runs a dozen statements. `raw` statements return rows as arrays.
 */
export function cachedStatement(db: Db, sql: string, options: { raw?: boolean } = {}): Database.Statement {
  let byText = statementCache.get(db);
  if (!byText) {
    byText = new Map();
    statementCache.set(db, byText);
  }
  const key = options.raw ? `raw:${sql}` : sql;
  let statement = byText.get(key);
  if (!statement) {
    statement = db.prepare(sql);
    if (options.raw) statement.raw();
    byText.set(key, statement);
  }
  return statement;
}

/** Runs `fn` in a write transaction that takes the lock up front, so concurrent writers queue instead of failing. */
export function writeTx<T>(db: Db, fn: () => T): T {
  return db.transaction(fn).immediate();
}

/** Takes the write lock and gives it back at once: false when another process held it past the busy timeout. */
export function canWrite(db: Db): boolean {
  if (db.inTransaction) return true;
  try {
    db.exec('BEGIN IMMEDIATE');
    db.exec('ROLLBACK');
    return true;
  } catch (err) {
    if (isBusyError(err)) return false;
    throw err;
  }
}

/** Whether this SQLite build has FTS5 with the porter tokenizer; the error message when it has not. */
export function fts5Problem(): string | undefined {
  const db = openDatabase(':memory:', { migrate: false });
  try {
    db.exec("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61')");
    return undefined;
  } catch (err) {
    return (err as Error).message;
  } finally {
    db.close();
  }
}

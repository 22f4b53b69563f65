/**
 * The doctor's database check: there, writable, sound, of a schema this version reads; and when
 * it is missing or was begun again, the instinct files that say what an earlier one learned.
 */
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import type { HomePaths } from '../core/paths.js';
import { counted } from '../core/text.js';
import { type Store, integrityProblem, openStore, recoverHint } from '../store/store.js';
import { unrenderedFiles } from '../view/render.js';

interface DatabaseVerdict {
  name: 'database';
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

/** What to do with a damaged database, without losing what can be saved. */
const damagedFix = (paths: HomePaths): string =>
  `${recoverHint(paths.db)} ` +
  `Failing that, move it aside and run \`homunculus sync\`: it brings back the instincts from their files under instincts/ first (with your edits and "wrong" marks), then learns again from the agents' transcripts.`;

/** Bringing back what a database learned from its instinct files, when the database itself is gone. */
const restoreFix = (): string =>
  `Put homunculus.db back from a backup if you have one; failing that, run \`homunculus sync\`: it brings those instincts back from their files first (with your edits and "wrong" marks), then learns again from the transcripts.`;

export function databaseCheck(paths: HomePaths): DatabaseVerdict {
  if (!existsSync(paths.db)) {
    const files = existsSync(paths.instincts) ? readdirSync(paths.instincts).filter((n) => n.endsWith('.md')).length : 0;
    if (files === 0) return { name: 'database', status: 'warn', detail: 'no database yet', fix: 'Run `homunculus init`.' };
    return {
      name: 'database',
      status: 'fail',
      detail: `no database, but ${counted(files, 'instinct file')} under instincts/ say one learned here: it was deleted or moved`,
      fix: restoreFix(),
    };
  }
  const readOnly = unwritable([paths.db, `${paths.db}-wal`, `${paths.db}-shm`]);
  if (readOnly) {
    return {
      name: 'database',
      status: 'fail',
      detail: `${readOnly} is read-only: hooks cannot record and learning cannot run`,
      fix: `Make it writable for your user (chmod u+w '${readOnly}').`,
    };
  }
  let store: Store;
  try {
    store = openStore({ home: paths.home, readonly: true });
  } catch (err) {
    return { name: 'database', status: 'fail', detail: (err as Error).message, fix: (err as { hint?: string }).hint };
  }
  try {
    const health = store.health();
    if (health.integrity !== 'ok') {
      return {
        name: 'database',
        status: 'fail',
        detail: `the database is damaged (integrity check: ${integrityProblem(health.integrity)})`,
        fix: damagedFix(paths),
      };
    }
    if (health.schemaVersion > health.latestSchema) {
      return {
        name: 'database',
        status: 'fail',
        detail: `schema ${health.schemaVersion} is newer than this homunculus understands (${health.latestSchema})`,
        fix: 'Upgrade homunculus to the version that wrote it (npm install -g homunculus-memory), or point --home elsewhere.',
      };
    }
    if (health.schemaVersion < health.latestSchema) {
      return {
        name: 'database',
        status: 'warn',
        detail: `schema ${health.schemaVersion} of ${health.latestSchema}`,
        fix: 'Run any homunculus command (e.g. `homunculus status`) to upgrade it in place.',
      };
    }
    const counts = `${store.instincts.count()} instincts, ${store.observations.count()} observations (${store.observations.count({ pendingOnly: true })} pending)`;
    const strays = unrenderedFiles(store).strays.length;
    if (strays)
      return {
        name: 'database',
        status: 'warn',
        detail: `${counts}; ${counted(strays, 'file')} under instincts/ hold instincts this database has not taken in (a database deleted and begun again? the next \`homunculus sync\` brings them back)`,
        fix: restoreFix(),
      };
    return { name: 'database', status: 'ok', detail: `schema ${health.schemaVersion}, ${health.journalMode} journal, ${counts}` };
  } catch (err) {
    return { name: 'database', status: 'fail', detail: (err as Error).message, fix: damagedFix(paths) };
  } finally {
    store.close();
  }
}

/** The first of `files` that exists and cannot be written, if any. */
function unwritable(files: readonly string[]): string | undefined {
  return files.find((f) => {
    if (!existsSync(f)) return false;
    try {
      accessSync(f, constants.W_OK);
      return false;
    } catch {
      return true;
    }
  });
}

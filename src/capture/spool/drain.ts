/**
 * Draining the observe hook's spool (write.ts) into the observations table. Whoever reads
 * pending observations (the stop hook, import, the learning run) drains first.
 */
import { readFileSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { NewObservation } from '../../store/observations.js';
import type { Store } from '../../store/store.js';
import { spoolDir } from './write.js';

interface DrainResult {
  files: number;
  inserted: number;
  duplicates: number;
  malformed: number;
}

function isObservation(value: unknown): value is NewObservation {
  const v = value as Partial<NewObservation> | null;
  return (
    !!v &&
    typeof v === 'object' &&
    typeof v.source === 'string' &&
    typeof v.session_id === 'string' &&
    typeof v.tool_use_id === 'string' &&
    typeof v.ts === 'string'
  );
}

/** Files older than this that never got renamed are leftovers of a killed hook. */
const STALE_TMP_MS = 60 * 60 * 1000;

type Observations = Pick<Store, 'observations'>;

/** A spooled file's observations (one JSON line each) into the store; malformed lines are counted and skipped. */
function insertLines(store: Observations, text: string, result: DrainResult): void {
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      result.malformed++;
      continue;
    }
    if (!isObservation(value)) result.malformed++;
    else if (store.observations.insert(value)) result.inserted++;
    else result.duplicates++;
  }
}

/** Removes temporary files a killed hook left behind long ago (a younger one may still be being written). */
function clearAbandoned(dir: string, names: readonly string[], now: number): void {
  for (const name of names) {
    const stamp = Number(/^\.(\d+)-/.exec(name)?.[1]);
    if (name.endsWith('.tmp') && stamp && now - stamp > STALE_TMP_MS) {
      try {
        renameSync(join(dir, name), join(dir, `${name}.abandoned`));
        unlinkSync(join(dir, `${name}.abandoned`));
      } catch {
        // Gone already.
      }
    }
  }
}

/** Moves every spooled observation into the database, oldest first, then deletes the files. */
export function drainSpool(store: Observations & Pick<Store, 'transaction'>, home: string): DrainResult {
  const dir = spoolDir(home);
  const result: DrainResult = { files: 0, inserted: 0, duplicates: 0, malformed: 0 };
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return result;
  }
  const ready = names.filter((n) => n.endsWith('.json') && !n.startsWith('.')).sort();
  const read: string[] = [];
  store.transaction(() => {
    for (const name of ready) {
      let text: string;
      try {
        text = readFileSync(join(dir, name), 'utf8');
      } catch {
        continue; // Another drain took it.
      }
      read.push(name);
      result.files++;
      insertLines(store, text, result);
    }
  });
  // Deleted only after the transaction committed: a crash before this re-reads them, harmlessly.
  for (const name of read) {
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Already removed by a concurrent drain.
    }
  }
  clearAbandoned(dir, names, Date.now());
  return result;
}

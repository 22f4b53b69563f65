/** Transfer operations: instincts in from instinct files or an archive, out to an archive. */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { realTarget, refuseProtected } from '../core/confine.js';
import { UsageError } from '../core/errors.js';
import { isDirectory } from '../core/fs.js';
import { findEntity, upsertEntity } from '../graph/entities.js';
import { consolidateLevels, giveFeedback } from '../learn/instincts.js';
import { mergeInstinct } from '../learn/merge.js';
import { parseJsonObject } from '../store/json.js';
import type { Store } from '../store/store.js';
import { exportInstincts, readArchive } from '../view/archive.js';
import { readInstinctFiles } from '../view/import-files.js';
import { renderAll } from '../view/render.js';
import { checkImported } from './imported.js';
import { defineOperation } from './operation.js';
import { text } from './schemas.js';

const path = () => text(4096).min(1, { error: 'must not be empty' });

interface Merged {
  imported: number;
  raised: number;
  unchanged: number;
}

/** A record an import refused, named by where it came from, and why. */
interface Refused {
  from: string;
  reason: string;
}

/**
 * Why an instinct the user forgot here stays forgotten when an import (an older archive) brings
 * it back; undefined otherwise (held again, never forgotten, or let go by learning, which says why).
 */
function forgottenHere(store: Store, key: string): string | undefined {
  if (store.instincts.get(store.instincts.resolveAlias(key))) return undefined;
  const last = store.instincts.forgottenEvents(key).findLast((e) => e.kind === 'forget');
  if (!last || 'reason' in parseJsonObject(last.detail)) return undefined;
  return `you forgot it here on ${last.ts.slice(0, 10)}; it stays forgotten (\`homunculus observe '${key}'\` learns it again)`;
}

/**
 * Validates every record with the one import schema and merges the valid ones in one
 * transaction: a bad record is refused with its reason and the rest still arrive; merging
 * raises what exists, never lowers it.
 */
function mergeImported(
  store: Store,
  records: readonly { from: string; record: unknown }[],
  via: string,
  names: Readonly<Record<string, string>> = {},
): Merged & { refused: Refused[] } {
  const result = { imported: 0, raised: 0, unchanged: 0, refused: [] as Refused[] };
  const now = store.clock.now();
  store.transaction(() => {
    for (const { from, record } of records) {
      const checked = checkImported(record, now, names);
      if (!checked.ok) {
        result.refused.push({ from, reason: checked.reason });
        continue;
      }
      const forgotten = forgottenHere(store, checked.instinct.key);
      if (forgotten) {
        result.refused.push({ from, reason: forgotten });
        continue;
      }
      const outcome = mergeInstinct(store, checked.instinct, via);
      if (outcome === 'created') result.imported++;
      else if (outcome === 'raised') result.raised++;
      else result.unchanged++;
    }
  });
  // An instinct arrives with its evidence; the level that evidence supports is stored now, not at the next consolidate.
  if (result.imported + result.raised > 0) consolidateLevels(store);
  return result;
}

/** Marks the instincts of `keys` wrong that are not so already; returns how many it marked. */
export function markWrong(store: Store, keys: readonly string[]): number {
  const unmarked = new Set(store.instincts.list({ unrefuted: true }).map((r) => r.key));
  const todo = keys.filter((k) => unmarked.has(k));
  for (const key of todo) giveFeedback(store, key, 'wrong', 'import-files');
  return todo.length;
}

export const importFiles = defineOperation({
  name: 'transfer.import-files',
  summary: 'Import instinct markdown files (YAML front matter: trigger, action, confidence, domain ...) from a folder',
  input: z.object({ dir: path() }),
  run({ store, warn }, input) {
    const read = readInstinctFiles(resolve(input.dir));
    const { refused, ...merged } = mergeImported(
      store,
      read.records.map((r) => ({ from: r.file, record: r.record })),
      'import-files',
      { first_seen: 'created' },
    );
    const skipped = [...read.skipped, ...refused.map((r) => ({ file: r.from, reason: r.reason }))];
    // A file the readable view wrote for an instinct marked wrong brings the mark back with it.
    const marked = read.records.filter((r) => r.wrong && !refused.some((x) => x.from === r.file)).map((r) => String(r.record.key));
    const wrong = markWrong(store, marked);
    renderAll(store);
    for (const s of skipped) warn?.(`skipped ${s.file}: ${s.reason}`);
    return { ...merged, marked_wrong: wrong, skipped };
  },
});

export const exportArchive = defineOperation({
  name: 'transfer.export',
  summary: 'A tarball of instincts only (no observations, no code) for sharing',
  input: z.object({ out: path().optional(), force: z.boolean().default(false) }),
  run({ store }, input) {
    if (!input.out) return exportInstincts(store);
    // A tarball may go anywhere the user names but over the store or into .git.
    const real = realTarget(resolve(input.out));
    refuseProtected(real, input.out, store.paths.home, [store.paths.exports]);
    // Only a file named on purpose is replaced: `--out notes.md` must not turn the user's notes into a tarball.
    if (!input.force && existsSync(real) && !isDirectory(real))
      throw new UsageError(`${input.out} exists already.`, 'Name a new file (or a folder), or pass --force to replace it.');
    return exportInstincts(store, real);
  },
});

/**
 * The names an archive gives its projects, kept as the graph's project entities (as sessions
 * make them) for the projects this store has no name for: `list --project cli` and `get` then
 * know a teammate's project by its name. A name this store gives something else stays its own.
 */
function nameProjects(store: Store, projects: Readonly<Record<string, string>>): void {
  const named = new Set(store.sessions.projects().map((p) => p.project));
  const filed = new Set(store.instincts.list().map((r) => r.project));
  const at = store.clock.now().toISOString();
  store.transaction(() => {
    for (const [fingerprint, name] of Object.entries(projects)) {
      if (named.has(fingerprint) || !filed.has(fingerprint) || findEntity(store, name)) continue;
      upsertEntity(store, { name, type: 'project', properties: { fingerprint } }, at);
    }
  });
}

/** How an archive record is named in a message: its place, and its key when it has one. */
const recordName = (record: unknown, index: number): string => {
  const key = (record as { key?: unknown } | null)?.key;
  return `instinct ${index + 1}${typeof key === 'string' ? ` (${key.slice(0, 80)})` : ''}`;
};

export const importArchive = defineOperation({
  name: 'transfer.import',
  summary: 'Merge an instinct tarball made by export: raises what exists, never lowers it; a bad record is skipped with its reason',
  input: z.object({ file: path() }),
  async run({ store, warn }, input) {
    const { records, projects } = await readArchive(resolve(input.file));
    const { refused, ...merged } = mergeImported(
      store,
      records.map((record, i) => ({ from: recordName(record, i), record })),
      'import',
    );
    nameProjects(store, projects);
    renderAll(store);
    for (const r of refused) warn?.(`skipped ${r.from}: ${r.reason}`);
    return { ...merged, skipped: refused.map((r) => ({ record: r.from, reason: r.reason })) };
  },
});

/**
 * What a database deleted and begun again had learned, brought back by `sync` from the
 * readable view's files this database has not taken in (render.ts: its strays). They are read before the
 * sync learns and applied after it: the transcripts are counted once, as a first sync counts
 * them, and the files add what cannot be learned again (the user's words, "wrong" marks,
 * instincts from hooks, imports and MCP) without adding their evidence a second time.
 */
import { lstatSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { editInstinct, instinctText } from '../learn/corrections.js';
import { mergeInstinct } from '../learn/merge.js';
import type { Store } from '../store/store.js';
import { type InstinctFiles, readInstinctFileList } from '../view/import-files.js';
import { unrenderedFiles } from '../view/render.js';
import { checkImported } from './imported.js';
import { markWrong } from './transfer.js';

export interface StrayFiles {
  files: string[];
  read: InstinctFiles;
}

/** The instinct files this database has not taken in, read now (a render may write over them); undefined when there are none. */
export function readStrayFiles(store: Store): StrayFiles | undefined {
  const files = unrenderedFiles(store).strays.filter((f) => lstatSync(f).isFile());
  return files.length ? { files, read: readInstinctFileList(files) } : undefined;
}

interface Restored {
  files: number;
  /** Instincts the files brought back or completed. */
  restored: number;
  /** Of those, how many had other words in their file than learning gave them (the user's edits). */
  reworded: number;
  marked_wrong: number;
  skipped: { file: string; reason: string }[];
}

/** Whether a file's text says other words than the store holds, compared as an edit stores them (line breaks are no other words). */
const differs = (text: string | undefined, held: string): boolean => text !== undefined && instinctText(text) !== held;

/**
 * Merges the stray files into the store: an instinct learned again keeps the larger evidence
 * and the higher score of the two, and takes its file's words and file name; one that was not
 * is created as the file says.
 */
export function restoreStrayFiles(store: Store, strays: StrayFiles, warn?: (message: string) => void): Restored {
  const now = store.clock.now();
  const result: Restored = { files: strays.files.length, restored: 0, reworded: 0, marked_wrong: 0, skipped: [...strays.read.skipped] };
  const wrong: string[] = [];
  store.transaction(() => {
    const names = new Set(store.instincts.list().map((r) => r.file_name));
    for (const { file, record, wrong: markedWrong } of strays.read.records) {
      const checked = checkImported(record, now, { first_seen: 'created' });
      if (!checked.ok) {
        result.skipped.push({ file, reason: checked.reason });
        continue;
      }
      const incoming = checked.instinct;
      mergeInstinct(store, incoming, 'restore');
      const row = store.instincts.get(store.instincts.resolveAlias(incoming.key));
      if (!row) continue;
      result.restored++;
      const words = {
        ...(differs(incoming.trigger, row.trigger) ? { trigger: incoming.trigger } : {}),
        ...(differs(incoming.action, row.action) ? { action: incoming.action } : {}),
        // The file's heading is its title: an edited one keeps it rather than one derived again.
        ...(incoming.title && differs(incoming.title, row.title) ? { title: incoming.title } : {}),
      };
      if (Object.keys(words).length) {
        editInstinct(store, row.key, words, 'restore');
        result.reworded++;
      }
      // The file keeps its name; the one a render gave the instinct meanwhile goes.
      const name = basename(file);
      if (row.file_name !== name && !names.has(name)) {
        store.instincts.update(row.id, { file_name: name });
        names.add(name);
        if (row.file_name) rmSync(join(dirname(file), row.file_name), { force: true });
      }
      if (markedWrong) wrong.push(row.key);
    }
    result.marked_wrong = markWrong(store, wrong);
  });
  for (const s of result.skipped) warn?.(`left ${s.file} as it is: ${s.reason}`);
  return result;
}

/**
 * The general memory surface: adding documents one at a time or from a JSONL file (one
 * `{id, text, collection?, ts?, project?, metadata?}` per line). Bad lines are reported
 * with their line numbers and skipped; every good line is stored.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { atPath } from '../core/errors.js';
import { regularInput } from '../core/fs.js';
import type { DocumentInput, UpsertCounts } from '../store/documents/index.js';
import type { Store } from '../store/store.js';
import { DocumentInputError, validateDocumentInput } from './documents.js';
import { deleteAndRelink, supersedeRestated } from './supersede.js';

export interface BadLine {
  line: number;
  error: string;
}

export interface ImportResult extends UpsertCounts {
  /** Memories marked superseded by what this import stored (unless --no-supersede): older ones, and imported ones a newer memory restates. */
  superseded: number;
  lines: number;
  bad: BadLine[];
  /** Lines giving an id an earlier line of the file gave (same collection): the later line is what is stored. */
  duplicates: DuplicateLine[];
}

export interface DuplicateLine {
  line: number;
  /** The earlier line with the same id. */
  first: number;
  collection: string;
  id: string;
}

const IMPORT_BATCH = 2000;

/**
 * Stores documents. With `supersede`, each one is compared with the newest memories of its
 * collection and project, and the older ones it restates are marked superseded (never deleted).
 */
export function addDocuments(
  store: Store,
  docs: readonly DocumentInput[],
  options: { supersede?: boolean } = {},
): UpsertCounts & { superseded: string[]; supersededBy: Record<string, string> } {
  const now = store.clock.now().toISOString();
  return store.transaction(() => {
    const counts = store.documents.upsert(docs, now);
    const superseded: string[] = [];
    const supersededBy: Record<string, string> = {};
    for (const d of options.supersede ? docs : []) {
      const r = supersedeRestated(store.documents, d.collection, d.id);
      superseded.push(...r.older);
      if (r.by) supersededBy[d.id] = r.by;
      Object.assign(supersededBy, r.chained);
    }
    return { ...counts, superseded, supersededBy };
  });
}

/** Deletes memories by id; what they superseded becomes current again, or the next value's history. */
export function deleteDocuments(store: Store, collection: string, ids: readonly string[]): number {
  return store.transaction(() => deleteAndRelink(store.documents, collection, ids));
}

/** Parses one JSONL line into a document, or explains why it cannot be one. */
export function parseDocumentLine(text: string, defaults: { collection?: string }): DocumentInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new DocumentInputError(`not valid JSON (${(err as Error).message})`);
  }
  return validateDocumentInput(value, defaults);
}

export async function importJsonl(
  store: Store,
  path: string,
  options: { collection?: string; supersede?: boolean; onProgress?: (bytes: number, total: number) => void } = {},
): Promise<ImportResult> {
  const stat = regularInput(
    path,
    'Give the path of one JSONL file, one {"id", "text", ...} object per line (import each file of a folder in turn).',
  );
  const total = stat.size;
  const result: ImportResult = { lines: 0, bad: [], duplicates: [], inserted: 0, updated: 0, unchanged: 0, superseded: 0 };
  const seen = new Map<string, number>();
  let batch: DocumentInput[] = [];
  let bytes = 0;
  const flush = () => {
    if (batch.length === 0) return;
    const counts = addDocuments(store, batch, { supersede: options.supersede });
    result.superseded += counts.superseded.length + Object.keys(counts.supersededBy).length;
    result.inserted += counts.inserted;
    result.updated += counts.updated;
    result.unchanged += counts.unchanged;
    batch = [];
    options.onProgress?.(bytes, total);
  };
  /** One line: a document for the batch (a repeated id noted), or a bad line noted. */
  const take = (line: string): void => {
    try {
      const doc = parseDocumentLine(line, { collection: options.collection });
      const key = `${doc.collection}\n${doc.id}`;
      const first = seen.get(key);
      if (first === undefined) seen.set(key, result.lines);
      else result.duplicates.push({ line: result.lines, first, collection: doc.collection, id: doc.id });
      batch.push(doc);
    } catch (err) {
      if (!(err instanceof DocumentInputError)) throw err;
      result.bad.push({ line: result.lines, error: err.message });
    }
  };
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  try {
    for await (const line of lines) {
      result.lines++;
      bytes += Buffer.byteLength(line, 'utf8') + 1;
      if (line.trim() !== '') take(line);
      if (batch.length >= IMPORT_BATCH) flush();
    }
  } catch (err) {
    throw atPath(err, path);
  }
  flush();
  options.onProgress?.(total, total);
  return result;
}

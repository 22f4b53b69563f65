/**
 * Memories that change over time: when a new memory restates a value an older one gave (a
 * deadline moved, a latency improved, a preference flipped), the older one is marked
 * superseded with a link to the newer, never deleted, and ranks below it.
 */
import type { DocumentRepository, DocumentRow } from '../store/documents/index.js';
import { parseJsonObject } from '../store/json.js';
import { detectRestatement } from './restatement.js';

/** How many of the newest memories of the same collection and project a new one is compared with. */
export const SUPERSEDE_CANDIDATES = 200;

/**
 * A restatement is a short statement of a value ("the API now averages 250 ms"). Two long
 * texts (chat turns of a page) sharing half their words are a conversation going on, not an
 * update: on BEAM's turns the rule marked most of every chat, each turn by the reply after it.
 */
export const RESTATEMENT_MAX_CHARS = 240;

const restates = (older: DocumentRow, newer: DocumentRow): boolean =>
  older.text.length <= RESTATEMENT_MAX_CHARS &&
  newer.text.length <= RESTATEMENT_MAX_CHARS &&
  detectRestatement(older.text, newer.text, { oneSubject: true }).restates;

export function isSuperseded(metadata: string | null | undefined): boolean {
  return typeof parseJsonObject(metadata).superseded_by === 'string';
}

/** Links `older` to the memory that replaced it, both ways. */
function link(documents: DocumentRepository, older: DocumentRow, newer: DocumentRow): void {
  documents.setMetadata(older.id, {
    ...parseJsonObject(older.metadata),
    superseded_by: newer.ext_id,
    superseded_at: newer.ts ?? newer.created_at,
  });
  // Read again: it may have been linked a moment ago.
  const current = parseJsonObject(documents.get(newer.collection, newer.ext_id)?.metadata);
  const supersedes = (current.supersedes as string[] | undefined) ?? [];
  documents.setMetadata(newer.id, { ...current, supersedes: [...supersedes, older.ext_id] });
}

/** The memory right after `older` that restates it: what it is superseded by, in a chain (1 -> 2 -> 3). */
function nearestRestating(documents: DocumentRepository, older: DocumentRow): DocumentRow | undefined {
  return documents.newerThan(older, SUPERSEDE_CANDIDATES).find((n) => restates(older, n));
}

/**
 * Marks the older memories that `id` restates, and `id` itself when a newer memory stored
 * before it (older history imported late) restates it. Older means an earlier time (a memory
 * without one is as of when it was stored), else stored first. Each older memory is marked by
 * the nearest newer one that restates it, so history is a chain: a file holding three values
 * read newest line first marks the first by the second, not both by the third. Must run inside
 * the write transaction that stored `id`. Returns the older ids it superseded, what superseded
 * it, and the older ones it found that a memory between them restates (older id -> that one).
 */
export function supersedeRestated(
  documents: DocumentRepository,
  collection: string,
  id: string,
): { older: string[]; by?: string; chained: Record<string, string> } {
  const doc = documents.get(collection, id);
  if (!doc || doc.text.length > RESTATEMENT_MAX_CHARS) return { older: [], chained: {} };
  const newer = isSuperseded(doc.metadata) ? undefined : nearestRestating(documents, doc);
  if (newer) link(documents, doc, newer);
  const older: string[] = [];
  const chained: Record<string, string> = {};
  for (const o of documents.supersedeCandidates(doc, SUPERSEDE_CANDIDATES).filter((c) => restates(c, doc))) {
    const by = nearestRestating(documents, o) ?? doc;
    link(documents, o, by);
    if (by.id === doc.id) older.push(o.ext_id);
    else chained[o.ext_id] = by.ext_id;
  }
  return { older, chained, ...(newer ? { by: newer.ext_id } : {}) };
}

const withoutLinks = (metadata: string | null): Record<string, unknown> => {
  const { superseded_by: _by, superseded_at: _at, ...rest } = parseJsonObject(metadata);
  return rest;
};

/**
 * Deletes memories and mends the history around them: a memory a deleted one superseded is
 * current again, or superseded by the next value after it that remains (1 -> 2 -> 3, delete 3:
 * 2 is current; delete 2: 1 is superseded by 3), and the newer memory a deleted one pointed
 * at no longer lists it. Must run inside one write transaction. Returns how many were deleted.
 */
export function deleteAndRelink(documents: DocumentRepository, collection: string, ids: readonly string[]): number {
  const gone = new Set(ids);
  for (const id of ids) {
    const by = parseJsonObject(documents.get(collection, id)?.metadata).superseded_by;
    const newer = typeof by === 'string' && !gone.has(by) ? documents.get(collection, by) : undefined;
    if (!newer) continue;
    const meta = parseJsonObject(newer.metadata);
    const supersedes = ((meta.supersedes as string[] | undefined) ?? []).filter((o) => o !== id);
    documents.setMetadata(newer.id, { ...meta, supersedes });
  }
  const orphans = documents.supersededBy(collection, ids).filter((o) => !gone.has(o.ext_id));
  const deleted = documents.delete(collection, ids);
  // Unlink all first, so each finds the others as candidates again.
  for (const o of orphans) documents.setMetadata(o.id, withoutLinks(o.metadata));
  for (const o of orphans) supersedeRestated(documents, collection, o.ext_id);
  return deleted;
}

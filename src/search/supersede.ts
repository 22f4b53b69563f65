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

/**
 * Marks the older memories that `id` restates, and `id` itself when a newer memory stored
 * before it (older history imported late) restates it. Older means an earlier time (a memory
 * without one is as of when it was stored), else stored first. Must run inside the write
 * transaction that stored `id`. Returns the older ids it superseded, and what superseded it.
 */
export function supersedeRestated(documents: DocumentRepository, collection: string, id: string): { older: string[]; by?: string } {
  const doc = documents.get(collection, id);
  if (!doc || doc.text.length > RESTATEMENT_MAX_CHARS) return { older: [] };
  const newer = isSuperseded(doc.metadata) ? undefined : documents.newerThan(doc, SUPERSEDE_CANDIDATES).find((n) => restates(doc, n));
  if (newer) link(documents, doc, newer);
  const older = documents.supersedeCandidates(doc, SUPERSEDE_CANDIDATES).filter((o) => restates(o, doc));
  for (const o of older) link(documents, o, doc);
  return { older: older.map((o) => o.ext_id), ...(newer ? { by: newer.ext_id } : {}) };
}

/**
 * Memories that change over time: when a new memory restates a value an older one gave (a
 * deadline moved, a latency improved, a preference flipped), the older one is marked
 * superseded with a link to the newer, never deleted, and ranks below it.
 */
import type { DocumentRepository } from '../store/documents/index.js';
import { parseJsonObject } from '../store/json.js';
import { detectRestatement } from './restatement.js';

/** How many of the newest memories of the same collection and project a new one is compared with. */
export const SUPERSEDE_CANDIDATES = 200;

export function isSuperseded(metadata: string | null | undefined): boolean {
  return typeof parseJsonObject(metadata).superseded_by === 'string';
}

/**
 * Marks the older memories that `id` restates. Must run inside the write transaction that
 * stored `id`. Returns the ids it superseded.
 */
export function supersedeRestated(documents: DocumentRepository, collection: string, id: string): string[] {
  const doc = documents.get(collection, id);
  if (!doc) return [];
  const candidates = documents.supersedeCandidates(doc, SUPERSEDE_CANDIDATES);
  const superseded: string[] = [];
  const at = doc.ts ?? doc.created_at;
  for (const older of candidates) {
    if (!detectRestatement(older.text, doc.text).restates) continue;
    const meta = { ...parseJsonObject(older.metadata), superseded_by: doc.ext_id, superseded_at: at };
    documents.setMetadata(older.id, meta);
    superseded.push(older.ext_id);
  }
  if (superseded.length) {
    const meta = {
      ...parseJsonObject(doc.metadata),
      supersedes: [...((parseJsonObject(doc.metadata).supersedes as string[] | undefined) ?? []), ...superseded],
    };
    documents.setMetadata(doc.id, meta);
  }
  return superseded;
}

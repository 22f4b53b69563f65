/**
 * Searchable documents: validation of what a user or agent sends, and the SQL to store it.
 * The full-text indexes follow through triggers (see store/documents-schema.ts).
 */
import { parseInstant } from '../core/clock.js';
import { type Db, cachedStatement } from '../store/db.js';
import { needsTrigramIndex } from './query-text.js';

export const COLLECTIONS = ['instincts', 'sessions', 'episodes', 'facts', 'entities', 'memories'] as const;
/** Collections indexed from their own tables; written only through those records. */
export const MIRRORED_COLLECTIONS: readonly string[] = ['instincts', 'sessions', 'episodes'];
export const DEFAULT_COLLECTION = 'memories';
export const MAX_ID_CHARS = 512;
export const MAX_TEXT_CHARS = 1_000_000;
export const MAX_SPEAKER_CHARS = 200;
const COLLECTION_NAME = /^[a-z][a-z0-9_-]{0,63}$/;

export interface DocumentInput {
  id: string;
  text: string;
  collection: string;
  title?: string;
  ts?: string;
  project?: string;
  /** The conversation or session the document belongs to; adjacent documents of a thread are neighbours. */
  thread?: string;
  seq?: number;
  /** Who said it (a person, an agent), for conversational memories; see speakers.ts. */
  speaker?: string;
  metadata?: Record<string, unknown>;
  confidence?: number;
  activation?: number;
}

export interface DocumentRow {
  id: number;
  collection: string;
  ext_id: string;
  title: string;
  text: string;
  ts: string | null;
  project: string;
  thread: string | null;
  seq: number | null;
  speaker: string | null;
  metadata: string;
  confidence: number | null;
  activation: number | null;
  created_at: string;
  updated_at: string;
}

/** Thrown for one bad input record; the message says which field and why. */
export class DocumentInputError extends Error {}

export function validateCollection(name: string, options: { allowMirrored?: boolean } = {}): string {
  if (!COLLECTION_NAME.test(name)) {
    throw new DocumentInputError(`collection must be lower-case letters, digits, "-" or "_" (max 64), got ${JSON.stringify(name)}`);
  }
  if (!options.allowMirrored && MIRRORED_COLLECTIONS.includes(name)) {
    throw new DocumentInputError(`collection "${name}" is indexed from its own records and cannot be written directly`);
  }
  return name;
}

const optionalString = (value: unknown, field: string): string | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new DocumentInputError(`${field} must be a string`);
  return value;
};

const optionalNumber = (value: unknown, field: string, range?: [number, number]): number | undefined => {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new DocumentInputError(`${field} must be a number`);
  if (range && (value < range[0] || value > range[1])) throw new DocumentInputError(`${field} must be between ${range[0]} and ${range[1]}`);
  return value;
};

/** Checks one `{id, text, collection?, ts?, project?, metadata?, ...}` record. */
export function validateDocumentInput(raw: unknown, defaults: { collection?: string } = {}): DocumentInput {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new DocumentInputError('expected a JSON object');
  const r = raw as Record<string, unknown>;
  const id = typeof r.id === 'number' && Number.isFinite(r.id) ? String(r.id) : r.id;
  if (typeof id !== 'string' || id.trim() === '') throw new DocumentInputError('id must be a non-empty string');
  if (id.length > MAX_ID_CHARS) throw new DocumentInputError(`id is longer than ${MAX_ID_CHARS} characters`);
  if (typeof r.text !== 'string' || r.text.trim() === '') throw new DocumentInputError('text must be a non-empty string');
  if (r.text.length > MAX_TEXT_CHARS) throw new DocumentInputError(`text is longer than ${MAX_TEXT_CHARS} characters`);
  const collection = validateCollection(optionalString(r.collection, 'collection') ?? defaults.collection ?? DEFAULT_COLLECTION);
  const tsText = optionalString(r.ts, 'ts');
  let ts: string | undefined;
  if (tsText !== undefined) {
    const at = parseInstant(tsText);
    if (!at) throw new DocumentInputError(`ts must be an ISO-8601 date or instant, got ${JSON.stringify(tsText)}`);
    ts = at.toISOString();
  }
  const metadata = r.metadata;
  if (metadata !== undefined && metadata !== null && (typeof metadata !== 'object' || Array.isArray(metadata))) {
    throw new DocumentInputError('metadata must be a JSON object');
  }
  const speaker = optionalString(r.speaker, 'speaker')?.trim();
  if (speaker !== undefined && (speaker === '' || speaker.length > MAX_SPEAKER_CHARS)) {
    throw new DocumentInputError(`speaker must be a non-empty name of at most ${MAX_SPEAKER_CHARS} characters`);
  }
  const seq = optionalNumber(r.seq, 'seq');
  if (seq !== undefined && !Number.isSafeInteger(seq)) throw new DocumentInputError('seq must be a whole number');
  return {
    id,
    text: r.text,
    collection,
    title: optionalString(r.title, 'title'),
    ts,
    project: optionalString(r.project, 'project'),
    thread: optionalString(r.thread, 'thread'),
    seq,
    speaker,
    metadata: (metadata as Record<string, unknown> | undefined) ?? undefined,
    confidence: optionalNumber(r.confidence, 'confidence', [0, 1]),
    activation: optionalNumber(r.activation, 'activation'),
  };
}

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** Statements prepared once per database handle (cachedStatement); ingest runs them tens of thousands of times. */
function prepared(db: Db) {
  return {
    find: cachedStatement(db, 'SELECT * FROM documents WHERE collection = ? AND ext_id = ?'),
    nextSeq: cachedStatement(
      db,
      'SELECT coalesce(max(seq), 0) + 1 AS n FROM documents WHERE collection = ? AND project = ? AND thread = ?',
    ),
    insert: cachedStatement(
      db,
      `INSERT INTO documents (collection, ext_id, title, text, ts, project, thread, seq, speaker, metadata, confidence, activation, trigram, created_at, updated_at)
       VALUES (@collection, @ext_id, @title, @text, @ts, @project, @thread, @seq, @speaker, @metadata, @confidence, @activation, @trigram, @now, @now)
       ON CONFLICT (collection, ext_id) DO NOTHING`,
    ),
    update: cachedStatement(
      db,
      `UPDATE documents SET title = @title, text = @text, ts = @ts, project = @project, thread = @thread, seq = @seq, speaker = @speaker,
         metadata = @metadata, confidence = @confidence, activation = @activation, trigram = @trigram, updated_at = @now WHERE id = @id`,
    ),
  };
}

/** Inserts or updates documents by (collection, id). Call inside a transaction for speed. */
export function upsertDocuments(db: Db, docs: readonly DocumentInput[], nowIso: string): UpsertCounts {
  const s = prepared(db);
  const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
  for (const doc of docs) {
    const project = doc.project ?? '';
    const row = {
      collection: doc.collection,
      ext_id: doc.id,
      title: doc.title ?? '',
      text: doc.text,
      ts: doc.ts ?? null,
      project,
      thread: doc.thread ?? null,
      seq: doc.seq ?? null,
      speaker: doc.speaker ?? null,
      metadata: JSON.stringify(doc.metadata ?? {}),
      confidence: doc.confidence ?? null,
      activation: doc.activation ?? null,
      trigram: needsTrigramIndex(`${doc.title ?? ''} ${doc.text}`) ? 1 : 0,
      now: nowIso,
    };
    // New documents (the common case at ingest) cost one statement; existing ones are compared.
    if (row.seq === null && doc.thread !== undefined) {
      const existing = s.find.get(doc.collection, doc.id) as DocumentRow | undefined;
      row.seq = existing?.thread === doc.thread ? existing.seq : (s.nextSeq.get(doc.collection, project, doc.thread) as { n: number }).n;
    }
    if (s.insert.run(row).changes > 0) {
      counts.inserted++;
      continue;
    }
    const existing = s.find.get(doc.collection, doc.id) as DocumentRow;
    if (
      existing.title !== row.title ||
      existing.text !== row.text ||
      existing.ts !== row.ts ||
      existing.project !== row.project ||
      existing.thread !== row.thread ||
      existing.seq !== row.seq ||
      existing.speaker !== row.speaker ||
      existing.metadata !== row.metadata ||
      existing.confidence !== row.confidence ||
      existing.activation !== row.activation
    ) {
      s.update.run({ ...row, id: existing.id });
      counts.updated++;
    } else {
      counts.unchanged++;
    }
  }
  return counts;
}

/** Deletes documents by external id; vectors and index entries go with them. Returns how many were removed. */
export function deleteDocuments(db: Db, collection: string, ids: readonly string[]): number {
  const del = db.prepare('DELETE FROM documents WHERE collection = ? AND ext_id = ?');
  let n = 0;
  for (const id of ids) n += del.run(collection, id).changes;
  return n;
}

export function getDocument(db: Db, collection: string, id: string): DocumentRow | undefined {
  return prepared(db).find.get(collection, id) as DocumentRow | undefined;
}

export function documentsByRowIds(db: Db, ids: readonly number[]): Map<number, DocumentRow> {
  const rows = cachedStatement(db, 'SELECT * FROM documents WHERE id IN (SELECT value FROM json_each(?))').all(
    JSON.stringify(ids),
  ) as DocumentRow[];
  return new Map(rows.map((r) => [r.id, r]));
}

export function countDocuments(db: Db, collection?: string): number {
  const row = collection
    ? db.prepare('SELECT COUNT(*) AS n FROM documents WHERE collection = ?').get(collection)
    : db.prepare('SELECT COUNT(*) AS n FROM documents').get();
  return (row as { n: number }).n;
}

export function collectionCounts(db: Db): { collection: string; documents: number }[] {
  return db.prepare('SELECT collection, COUNT(*) AS documents FROM documents GROUP BY collection ORDER BY collection').all() as {
    collection: string;
    documents: number;
  }[];
}

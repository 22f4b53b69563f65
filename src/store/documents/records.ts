/**
 * Documents: one searchable record of any collection, keyed by (collection, external id).
 * The full-text indexes follow through triggers (see store/documents-schema.ts). SQL only:
 * what a user or agent may send is checked by search/documents.ts before it gets here.
 */
import { isIdentifier } from '../../text/trigram.js';
import { type Db, cachedStatement } from '../db.js';
import { parseJsonObject } from '../json.js';

/** One document to store, already validated. */
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
  /** Who said it (a person, an agent), for conversational memories. */
  speaker?: string;
  metadata?: Record<string, unknown>;
  confidence?: number;
  activation?: number;
}

export interface DocumentRow {
  /** The row id, which the full-text lists and vectors refer to. */
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
  /** A JSON object. */
  metadata: string;
  confidence: number | null;
  activation: number | null;
  created_at: string;
  updated_at: string;
}

export interface UpsertCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** A document's place in its thread. */
export interface ThreadPlace {
  collection: string;
  project: string;
  thread: string;
  seq: number;
}

export interface DocumentRecords {
  /**
   * Inserts or updates documents by (collection, id); a threaded document without a seq
   * keeps its own, or takes the next of its thread. Call inside `store.transaction` for speed.
   */
  upsert(docs: readonly DocumentInput[], at: string): UpsertCounts;
  /** Deletes documents by external id (their index entries and vectors go with them); returns how many. */
  delete(collection: string, ids: readonly string[]): number;
  get(collection: string, id: string): DocumentRow | undefined;
  /** The row ids of a collection's documents by external id (unknown ids are left out). */
  rowIds(collection: string, ids: readonly string[]): Map<string, number>;
  /** The documents with these row ids (unknown ids are left out). */
  byRowIds(ids: readonly number[]): Map<number, DocumentRow>;
  count(collection?: string): number;
  countByCollection(): { collection: string; documents: number }[];
  /** The documents of a thread whose seq lies within `radius` of `place`'s (itself included), by seq. */
  threadNeighbours(place: ThreadPlace, radius: number): DocumentRow[];
  /** Whether any document records who said it. */
  hasSpeakers(): boolean;
  /** A speaker's name as stored, found whatever its case. */
  speaker(name: string): string | undefined;
  /** The distinct speakers stored (at most `limit`). */
  speakers(limit: number): string[];
  /** The `limit` memories of its collection and project older than `doc` and not yet superseded, newest first. */
  supersedeCandidates(doc: DocumentRow, limit: number): DocumentRow[];
  /** The memories of its collection and project newer than `doc`, oldest first (an import of older history). */
  newerThan(doc: DocumentRow, limit: number): DocumentRow[];
  setMetadata(rowId: number, metadata: Record<string, unknown>): void;
  /** The memories of a collection marked superseded by one of `ids`, oldest first. */
  supersededBy(collection: string, ids: readonly string[]): DocumentRow[];
}

/** Whether a document's text goes to the trigram index too (any non-ASCII text, or a code-like token). */
export function needsTrigramIndex(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u007f]/.test(text) || isIdentifier(text);
}

const FIND = 'SELECT * FROM documents WHERE collection = ? AND ext_id = ?';

/** Statements prepared once per database handle (cachedStatement); ingest runs them tens of thousands of times. */
function upsertStatements(db: Db) {
  return {
    find: cachedStatement(db, FIND),
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

function rowOf(doc: DocumentInput, at: string) {
  return {
    collection: doc.collection,
    ext_id: doc.id,
    title: doc.title ?? '',
    text: doc.text,
    ts: doc.ts ?? null,
    project: doc.project ?? '',
    thread: doc.thread ?? null,
    seq: doc.seq ?? null,
    speaker: doc.speaker ?? null,
    metadata: JSON.stringify(doc.metadata ?? {}),
    confidence: doc.confidence ?? null,
    activation: doc.activation ?? null,
    trigram: needsTrigramIndex(`${doc.title ?? ''} ${doc.text}`) ? 1 : 0,
    now: at,
  };
}

type Row = ReturnType<typeof rowOf>;

/** What the store wrote on a document (its supersede links) outlives a new copy of it: a re-import changes nothing. */
const LINKS = ['superseded_by', 'superseded_at', 'supersedes'];
function withLinks(metadata: string, existing: string): string {
  const kept = Object.entries(parseJsonObject(existing)).filter(([k]) => LINKS.includes(k));
  return kept.length ? JSON.stringify({ ...parseJsonObject(metadata), ...Object.fromEntries(kept) }) : metadata;
}

const unchanged = (existing: DocumentRow, row: Row): boolean =>
  existing.title === row.title &&
  existing.text === row.text &&
  existing.ts === row.ts &&
  existing.project === row.project &&
  existing.thread === row.thread &&
  existing.seq === row.seq &&
  existing.speaker === row.speaker &&
  existing.metadata === row.metadata &&
  existing.confidence === row.confidence &&
  existing.activation === row.activation;

function upsert(db: Db, docs: readonly DocumentInput[], at: string): UpsertCounts {
  const s = upsertStatements(db);
  const counts: UpsertCounts = { inserted: 0, updated: 0, unchanged: 0 };
  for (const doc of docs) {
    const row = rowOf(doc, at);
    // New documents (the common case at ingest) cost one statement; existing ones are compared.
    if (row.seq === null && doc.thread !== undefined) {
      const existing = s.find.get(doc.collection, doc.id) as DocumentRow | undefined;
      row.seq =
        existing?.thread === doc.thread ? existing.seq : (s.nextSeq.get(doc.collection, row.project, doc.thread) as { n: number }).n;
    }
    if (s.insert.run(row).changes > 0) {
      counts.inserted++;
      continue;
    }
    const existing = s.find.get(doc.collection, doc.id) as DocumentRow;
    // New words are a new statement: the supersession decided for the old words does not carry over.
    if (existing.text === row.text) row.metadata = withLinks(row.metadata, existing.metadata);
    if (unchanged(existing, row)) {
      counts.unchanged++;
    } else {
      s.update.run({ ...row, id: existing.id });
      counts.updated++;
    }
  }
  return counts;
}

/**
 * The memories of `doc`'s collection and project on one side of it in time, nearest first: older
 * ones not superseded yet, or newer ones. Older is an earlier time (a memory without one counts
 * as of when it was stored), and of one time, stored first (a file's later line is newer): one
 * order for all, so no memory is both older and newer than another.
 */
function beside(db: Db, doc: DocumentRow, limit: number, side: 'older' | 'newer'): DocumentRow[] {
  return cachedStatement(db, besideQuery(side)).all({
    collection: doc.collection,
    project: doc.project,
    id: doc.id,
    at: doc.ts ?? doc.created_at,
    limit,
  }) as DocumentRow[];
}

/** beside's statement: it walks the documents_time index (migration 17) instead of sorting the collection. */
export function besideQuery(side: 'older' | 'newer'): string {
  const [before, order, open] =
    side === 'older' ? ['<', 'DESC', "AND json_extract(metadata, '$.superseded_by') IS NULL"] : ['>', 'ASC', ''];
  return `SELECT * FROM documents WHERE collection = @collection AND project = @project AND id != @id ${open}
       AND (COALESCE(ts, created_at) ${before} @at OR (COALESCE(ts, created_at) = @at AND id ${before} @id))
     ORDER BY COALESCE(ts, created_at) ${order}, id ${order} LIMIT @limit`;
}

export function createDocumentRecords(db: Db): DocumentRecords {
  return {
    upsert: (docs, at) => upsert(db, docs, at),
    delete(collection, ids) {
      const del = cachedStatement(db, 'DELETE FROM documents WHERE collection = ? AND ext_id = ?');
      let n = 0;
      for (const id of ids) n += del.run(collection, id).changes;
      return n;
    },
    get: (collection, id) => cachedStatement(db, FIND).get(collection, id) as DocumentRow | undefined,
    rowIds(collection, ids) {
      if (ids.length === 0) return new Map();
      const rows = cachedStatement(
        db,
        'SELECT ext_id, id FROM documents WHERE collection = ? AND ext_id IN (SELECT value FROM json_each(?))',
        {
          raw: true,
        },
      ).all(collection, JSON.stringify(ids)) as [string, number][];
      return new Map(rows);
    },
    byRowIds(ids) {
      const rows = cachedStatement(db, 'SELECT * FROM documents WHERE id IN (SELECT value FROM json_each(?))').all(
        JSON.stringify(ids),
      ) as DocumentRow[];
      return new Map(rows.map((r) => [r.id, r]));
    },
    count: (collection) =>
      (
        (collection === undefined
          ? cachedStatement(db, 'SELECT COUNT(*) AS n FROM documents').get()
          : cachedStatement(db, 'SELECT COUNT(*) AS n FROM documents WHERE collection = ?').get(collection)) as { n: number }
      ).n,
    countByCollection: () =>
      cachedStatement(db, 'SELECT collection, COUNT(*) AS documents FROM documents GROUP BY collection ORDER BY collection').all() as {
        collection: string;
        documents: number;
      }[],
    threadNeighbours: (place, radius) =>
      cachedStatement(
        db,
        'SELECT * FROM documents WHERE collection = ? AND project = ? AND thread = ? AND seq BETWEEN ? AND ? ORDER BY seq',
      ).all(place.collection, place.project, place.thread, place.seq - radius, place.seq + radius) as DocumentRow[],
    hasSpeakers: () => cachedStatement(db, 'SELECT 1 FROM documents WHERE speaker IS NOT NULL LIMIT 1').get() !== undefined,
    speaker: (name) =>
      (
        cachedStatement(db, 'SELECT speaker FROM documents WHERE speaker = ? COLLATE NOCASE LIMIT 1').get(name) as
          { speaker: string } | undefined
      )?.speaker,
    speakers: (limit) =>
      (
        cachedStatement(db, 'SELECT DISTINCT speaker FROM documents WHERE speaker IS NOT NULL LIMIT ?').all(limit) as { speaker: string }[]
      ).map((r) => r.speaker),
    supersedeCandidates: (doc, limit) => beside(db, doc, limit, 'older'),
    newerThan: (doc, limit) => beside(db, doc, limit, 'newer'),
    setMetadata: (rowId, metadata) =>
      void cachedStatement(db, 'UPDATE documents SET metadata = ? WHERE id = ?').run(JSON.stringify(metadata), rowId),
    supersededBy: (collection, ids) =>
      cachedStatement(
        db,
        `SELECT * FROM documents WHERE collection = ? AND json_extract(metadata, '$.superseded_by') IN (SELECT value FROM json_each(?))
         ORDER BY COALESCE(ts, created_at), id`,
      ).all(collection, JSON.stringify(ids)) as DocumentRow[],
  };
}

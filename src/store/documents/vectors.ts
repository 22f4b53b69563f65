/**
 * Stored embeddings of documents: a float vector and its sign code per document, tagged
 * with the key of the model that produced them, the model's fingerprint on record, and the
 * generation counter that tells an in-memory index to reload. SQL only; vectors and codes
 * are bytes here (the arithmetic is search's).
 */
import { type Db, cachedStatement } from '../db.js';
import { readMeta, writeMeta } from '../meta.js';

export interface VectorCounts {
  documents: number;
  /** Documents with a vector of the asked model. */
  current: number;
  /** Vectors of any other model. */
  stale: number;
  missing: number;
}

/** One document's sign code, with what the vector index filters on. */
export type SignCodeRow = [id: number, code: Uint8Array, collection: string, project: string, ts: string | null];

export interface VectorWrite {
  id: number;
  /** The sign bits of the vector. */
  code: Uint8Array;
  /** The float32 vector's bytes. */
  vector: Uint8Array;
}

export interface StoredVectors {
  /** The embedding fingerprint on record (a JSON object), if any. */
  fingerprint(): string | undefined;
  setFingerprint(json: string): void;
  /** A counter that every vector insert, update and delete moves. */
  vectorGeneration(): number;
  /** How many documents there are, and vectors of the model `key` (current) and of others (stale). */
  vectorCounts(key: string | undefined): VectorCounts;
  /** How many of a collection's documents (among these external ids, when given) have a vector of any model. */
  embeddedCount(collection: string, ids?: readonly string[]): number;
  /** Ids of documents without a vector of `key` (only among `among` when given). */
  missingVectorIds(key: string, options?: { among?: readonly number[]; limit?: number }): number[];
  /** Every document's id, in order. */
  documentIds(): number[];
  /** What is embedded of each document: its title and text. */
  embeddingTexts(ids: readonly number[]): { id: number; body: string }[];
  /** Stores each document's vector of model `key`, replacing any vector it had. */
  writeVectors(key: string, items: readonly VectorWrite[]): void;
  /** Removes the vectors of every model but `key` (they can never be used again); returns how many. */
  deleteStaleVectors(key: string): number;
  /** Every sign code of model `key`, by document id. */
  signCodes(key: string): SignCodeRow[];
  /** The float vectors of model `key` of these documents, as stored bytes. */
  vectors(ids: readonly number[], key: string): [id: number, vector: Uint8Array][];
}

const FINGERPRINT_KEY = 'embedding_fingerprint';

function missingVectorIds(db: Db, key: string, options: { among?: readonly number[]; limit?: number }): number[] {
  const limit = options.limit ?? -1;
  if (options.among) {
    if (options.among.length === 0) return [];
    const sql = `SELECT j.value AS id FROM json_each(?) j JOIN documents d ON d.id = j.value
       LEFT JOIN document_vectors v ON v.doc_id = d.id AND v.fingerprint = ? WHERE v.doc_id IS NULL LIMIT ?`;
    return (cachedStatement(db, sql).all(JSON.stringify(options.among), key, limit) as { id: number }[]).map((r) => r.id);
  }
  const sql = `SELECT d.id FROM documents d LEFT JOIN document_vectors v ON v.doc_id = d.id AND v.fingerprint = ?
     WHERE v.doc_id IS NULL ORDER BY d.id LIMIT ?`;
  return (cachedStatement(db, sql).all(key, limit) as { id: number }[]).map((r) => r.id);
}

export function createStoredVectors(db: Db): StoredVectors {
  return {
    fingerprint: () => readMeta(db, FINGERPRINT_KEY),
    setFingerprint: (json) => writeMeta(db, FINGERPRINT_KEY, json),
    vectorGeneration: () => Number(readMeta(db, 'vector_generation') ?? 0),
    vectorCounts(key) {
      const row = cachedStatement(
        db,
        `SELECT (SELECT COUNT(*) FROM documents) AS documents,
                (SELECT COUNT(*) FROM document_vectors WHERE fingerprint = @key) AS current,
                (SELECT COUNT(*) FROM document_vectors WHERE fingerprint != @key) AS stale`,
      ).get({ key: key ?? '' }) as { documents: number; current: number; stale: number };
      return { ...row, missing: row.documents - row.current };
    },
    embeddedCount(collection, ids) {
      const sql = `SELECT COUNT(*) AS n FROM documents d JOIN document_vectors v ON v.doc_id = d.id WHERE d.collection = ?`;
      const row = ids
        ? cachedStatement(db, `${sql} AND d.ext_id IN (SELECT value FROM json_each(?))`).get(collection, JSON.stringify(ids))
        : cachedStatement(db, sql).get(collection);
      return (row as { n: number }).n;
    },
    missingVectorIds: (key, options = {}) => missingVectorIds(db, key, options),
    documentIds: () => (cachedStatement(db, 'SELECT id FROM documents ORDER BY id').all() as { id: number }[]).map((r) => r.id),
    embeddingTexts: (ids) =>
      cachedStatement(
        db,
        'SELECT id, trim(title || char(10) || text, char(32, 9, 10, 13)) AS body FROM documents WHERE id IN (SELECT value FROM json_each(?))',
      ).all(JSON.stringify(ids)) as { id: number; body: string }[],
    writeVectors(key, items) {
      const put = cachedStatement(
        db,
        `INSERT INTO document_vectors (doc_id, fingerprint, code, vector) VALUES (?, ?, ?, ?)
         ON CONFLICT(doc_id) DO UPDATE SET fingerprint = excluded.fingerprint, code = excluded.code, vector = excluded.vector`,
      );
      for (const { id, code, vector } of items) put.run(id, key, code, vector);
    },
    deleteStaleVectors: (key) => cachedStatement(db, 'DELETE FROM document_vectors WHERE fingerprint != ?').run(key).changes,
    signCodes: (key) =>
      cachedStatement(
        db,
        `SELECT v.doc_id AS id, v.code AS code, d.collection AS collection, d.project AS project, d.ts AS ts
         FROM document_vectors v JOIN documents d ON d.id = v.doc_id WHERE v.fingerprint = ? ORDER BY v.doc_id`,
        { raw: true },
      ).all(key) as SignCodeRow[],
    vectors: (ids, key) =>
      cachedStatement(
        db,
        'SELECT doc_id, vector FROM document_vectors WHERE doc_id IN (SELECT value FROM json_each(?)) AND fingerprint = ?',
        { raw: true },
      ).all(JSON.stringify(ids), key) as [number, Uint8Array][],
  };
}

/**
 * Vectors of facts and entities, tagged with the model that made them (vectors of two
 * models are never compared). Stored as little-endian float32 blobs.
 */
import type { EntityType, MemoryType, Relation } from '../../core/graph-vocabulary.js';
import { type Db, cachedStatement } from '../db.js';
import { readMeta } from '../meta.js';
import { type FactFilter, factWhere } from './filter.js';

/** A fact that has a vector, without the vector. */
export interface FactVectorRef {
  id: number;
  relation: Relation;
  memory_type: MemoryType;
}

/** What a fact's vector is computed from. */
export interface UnembeddedFact {
  id: number;
  source: string;
  target: string;
  relation: Relation;
  description: string;
}

export interface UnembeddedEntity {
  id: number;
  name: string;
  type: EntityType;
}

export interface GraphVectorRepository {
  /** Moves whenever a fact's vector changes or a fact goes: vectors read before are stale once it moved. */
  generation(): number;
  /** Facts of the filter that have a vector of this model (the vectors are not read). */
  refs(filter: FactFilter, model: string): FactVectorRef[];
  /** The vectors of these facts made by this model. */
  ofFacts(ids: readonly number[], model: string): Map<number, Float32Array>;
  /** Facts of the filter without a vector of this model, newest first. */
  unembeddedFacts(filter: FactFilter, model: string, limit: number): UnembeddedFact[];
  /** Entities without a vector of this model, newest first. */
  unembeddedEntities(model: string, limit: number): UnembeddedEntity[];
  countUnembedded(filter: FactFilter, model: string): { facts: number; entities: number };
  setFact(id: number, model: string, vector: Float32Array): void;
  setEntity(id: number, model: string, vector: Float32Array): void;
}

export const vectorToBlob = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** The vector a blob holds; undefined for none or a torn one. */
export function blobToVector(blob: Uint8Array | null | undefined): Float32Array | undefined {
  if (!blob || blob.byteLength === 0 || blob.byteLength % 4 !== 0) return undefined;
  // Copy: SQLite blobs are not guaranteed to be 4-byte aligned.
  const copy = new Uint8Array(blob.byteLength);
  copy.set(blob);
  return new Float32Array(copy.buffer);
}

/**
 * No vector of this model (a changed description clears both columns). Written as index
 * ranges in a subquery: otherwise SQLite scans every row once all are embedded.
 */
const otherModel = (alias: string, table: string): string =>
  `${alias}.id IN (SELECT id FROM ${table} WHERE embedding_model IS NULL OR embedding_model < @model OR embedding_model > @model)`;

const OTHER_MODEL_FACT = otherModel('f', 'graph_facts');
const OTHER_MODEL_ENTITY = otherModel('e', 'graph_entities');

function ofFacts(db: Db, ids: readonly number[], model: string): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  if (ids.length === 0) return out;
  const rows = cachedStatement(
    db,
    'SELECT id, embedding FROM graph_facts WHERE id IN (SELECT value FROM json_each(?)) AND embedding_model = ?',
    { raw: true },
  ).all(JSON.stringify(ids), model) as [number, Buffer | null][];
  for (const [id, blob] of rows) {
    const v = blobToVector(blob);
    if (v) out.set(id, v);
  }
  return out;
}

export function createGraphVectorRepository(db: Db): GraphVectorRepository {
  const countUnembeddedFacts = (filter: FactFilter, model: string): number => {
    const where = factWhere(filter);
    const sql = `SELECT count(*) AS n FROM graph_facts f WHERE ${where.sql} AND ${OTHER_MODEL_FACT}`;
    return (cachedStatement(db, sql).get({ ...where.params, model }) as { n: number }).n;
  };
  return {
    generation: () => Number(readMeta(db, 'graph_vector_generation') ?? 0),
    refs(filter, model) {
      const where = factWhere(filter);
      const sql = `SELECT f.id, f.relation, f.memory_type FROM graph_facts f WHERE ${where.sql} AND f.embedding_model = @model`;
      return cachedStatement(db, sql).all({ ...where.params, model }) as FactVectorRef[];
    },
    ofFacts: (ids, model) => ofFacts(db, ids, model),
    unembeddedFacts(filter, model, limit) {
      const where = factWhere(filter);
      const sql = `SELECT f.id, s.name AS source, t.name AS target, f.relation, f.description FROM graph_facts f
        JOIN graph_entities s ON s.id = f.source_id JOIN graph_entities t ON t.id = f.target_id
        WHERE ${where.sql} AND ${OTHER_MODEL_FACT} ORDER BY f.id DESC LIMIT @limit`;
      return cachedStatement(db, sql).all({ ...where.params, model, limit }) as UnembeddedFact[];
    },
    unembeddedEntities: (model, limit) =>
      cachedStatement(
        db,
        `SELECT e.id, e.name, e.type FROM graph_entities e WHERE ${OTHER_MODEL_ENTITY} ORDER BY e.id DESC LIMIT @limit`,
      ).all({
        model,
        limit,
      }) as UnembeddedEntity[],
    countUnembedded: (filter, model) => ({
      facts: countUnembeddedFacts(filter, model),
      entities: (
        cachedStatement(db, `SELECT count(*) AS n FROM graph_entities e WHERE ${OTHER_MODEL_ENTITY}`).get({ model }) as { n: number }
      ).n,
    }),
    setFact(id, model, vector) {
      cachedStatement(db, 'UPDATE graph_facts SET embedding = ?, embedding_model = ? WHERE id = ?').run(vectorToBlob(vector), model, id);
    },
    setEntity(id, model, vector) {
      cachedStatement(db, 'UPDATE graph_entities SET embedding = ?, embedding_model = ? WHERE id = ?').run(vectorToBlob(vector), model, id);
    },
  };
}

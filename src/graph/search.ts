/**
 * Searching facts (seed 003's semantic search and BM25, fused by RRF), then scored:
 *
 *   score = rrf x activationFactor(ACT-R) x confidence x exp(-days / 90)
 *
 * days counts from the fact's valid_at to the instant asked about (now, or the past
 * instant of a time-travel query). With history included, a superseded fact keeps half
 * its score, so the value that replaced it ranks first.
 */
import { DAY_MS } from '../core/clock.js';
import { type Db, cachedStatement } from '../store/db.js';
import { readMeta } from '../store/meta.js';
import type { Store } from '../store/store.js';
import { activations } from './access.js';
import { activationFactor } from './activation.js';
import { type Fact, factsByIds } from './facts.js';
import { bm25Facts } from './fts.js';
import { BM25_WEIGHT, SEMANTIC_WEIGHT, type RankedIds, reciprocalRankFusion, recencyDecay } from './fusion.js';
import type { MemoryType } from './memory-type.js';
import type { Relation } from './ontology.js';
import { dot, l2normalize } from '../embed/vector-math.js';
import { blobToVector } from './similarity.js';
import { timeCondition } from './temporal.js';

export const SUPERSEDED_PENALTY = 0.5;
export const DEFAULT_LIST_LIMIT = 20;

export interface FactSearch {
  text: string;
  queryVector?: Float32Array;
  /** Model key of queryVector; only fact vectors of this model are compared. */
  model?: string;
  at?: string;
  knownAt?: string;
  /** Rank superseded and expired facts too (penalised), for questions about history. */
  includeHistory?: boolean;
  /** Facts of these projects and global facts (project ''); undefined = every project. */
  projects?: readonly string[];
  relations?: readonly Relation[];
  memoryTypes?: readonly MemoryType[];
  limit?: number;
  /** Vectors loaded once for several searches of the same scope (see loadVectorPool). */
  pool?: VectorPool;
}

/** The fact vectors of one model in one scope (time and projects), for several queries. */
export interface VectorPool {
  model: string;
  /** Vectors of unit length. */
  entries: { id: number; relation: Relation; memory_type: MemoryType; vector: Float32Array }[];
}

export interface ScoredFact {
  fact: Fact;
  score: number;
  rrf: number;
  activation: number;
  ranks: { bm25?: number; vector?: number };
}

function conditions(store: Store, q: FactSearch): { sql: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (q.includeHistory) {
    where.push("(f.expired_reason IS NULL OR f.expired_reason != 'decayed')");
  } else {
    const time = timeCondition(q, store.clock.now());
    where.push(time.sql);
    Object.assign(params, time.params);
  }
  if (q.projects) {
    where.push("(f.project = '' OR f.project IN (SELECT value FROM json_each(@projects)))");
    params.projects = JSON.stringify(q.projects);
  }
  if (q.relations) {
    where.push('f.relation IN (SELECT value FROM json_each(@relations))');
    params.relations = JSON.stringify(q.relations);
  }
  if (q.memoryTypes) {
    where.push('f.memory_type IN (SELECT value FROM json_each(@memoryTypes))');
    params.memoryTypes = JSON.stringify(q.memoryTypes);
  }
  return { sql: where.join(' AND '), params };
}

/** Fact vectors (unit length) read once per connection and model, kept until graph_vector_generation moves. */
const vectorCache = new WeakMap<Db, { generation: number; model: string; byId: Map<number, Float32Array> }>();

function factVectors(db: Db, model: string, ids: readonly number[]): Map<number, Float32Array> {
  const generation = Number(readMeta(db, 'graph_vector_generation') ?? 0);
  let cache = vectorCache.get(db);
  if (!cache || cache.generation !== generation || cache.model !== model) {
    cache = { generation, model, byId: new Map() };
    vectorCache.set(db, cache);
  }
  const missing = ids.filter((id) => !cache.byId.has(id));
  if (missing.length > 0) {
    const rows = cachedStatement(
      db,
      'SELECT id, embedding FROM graph_facts WHERE id IN (SELECT value FROM json_each(?)) AND embedding_model = ?',
      { raw: true },
    ).all(JSON.stringify(missing), model) as [number, Buffer | null][];
    for (const [id, blob] of rows) {
      const v = blobToVector(blob);
      // Stored unit length, so the per-query cosine is one dot product.
      if (v) cache.byId.set(id, l2normalize(v));
    }
  }
  return cache.byId;
}

/**
 * The vectors of the facts in scope. The scope is read as ids (cheap: no blobs); the vectors
 * come from a per-connection cache, so a long-lived process (the MCP server) reads each once.
 */
export function loadVectorPool(
  store: Store,
  scope: Pick<FactSearch, 'at' | 'knownAt' | 'includeHistory' | 'projects'>,
  model: string,
): VectorPool {
  const cond = conditions(store, { ...scope, text: '' });
  const rows = store.db
    .prepare(`SELECT f.id, f.relation, f.memory_type FROM graph_facts f WHERE ${cond.sql} AND f.embedding_model = @model`)
    .raw()
    .all({ ...cond.params, model }) as [number, Relation, MemoryType][];
  const vectors = factVectors(
    store.db,
    model,
    rows.map((r) => r[0]),
  );
  const entries: VectorPool['entries'] = [];
  for (const [id, relation, memory_type] of rows) {
    const vector = vectors.get(id);
    if (vector) entries.push({ id, relation, memory_type, vector });
  }
  return { model, entries };
}

/** The `limit` ids of highest score, best first (ties: lower id), without sorting them all. */
export function topIds(ids: readonly number[], scores: readonly number[], limit: number): number[] {
  const best: number[] = []; // indexes into ids/scores, best first
  const better = (i: number, j: number) =>
    (scores[i] as number) > (scores[j] as number) || (scores[i] === scores[j] && (ids[i] as number) < (ids[j] as number));
  for (let i = 0; i < ids.length; i++) {
    if (best.length === limit && !better(i, best[limit - 1] as number)) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (better(best[mid] as number, i)) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, i);
    if (best.length > limit) best.pop();
  }
  return best.map((i) => ids[i] as number);
}

/** Fact ids by cosine to the query vector among the pool's facts that pass the filters, best first. */
export function vectorFacts(
  pool: VectorPool,
  vector: Float32Array,
  q: Pick<FactSearch, 'relations' | 'memoryTypes'>,
  limit: number,
): number[] {
  const ids: number[] = [];
  const scores: number[] = [];
  const unit = l2normalize(vector);
  for (const e of pool.entries) {
    if (q.relations && !q.relations.includes(e.relation)) continue;
    if (q.memoryTypes && !q.memoryTypes.includes(e.memory_type)) continue;
    ids.push(e.id);
    // Pool vectors are unit length (see factVectors); another model's length is never similar.
    scores.push(e.vector.length === unit.length ? dot(unit, e.vector) : 0);
  }
  return limit > 0 ? topIds(ids, scores, limit) : [];
}

export function searchFacts(store: Store, q: FactSearch): ScoredFact[] {
  const limit = q.limit ?? DEFAULT_LIST_LIMIT;
  const cond = conditions(store, q);
  const bm25 = bm25Facts(store.db, q.text, { limit, where: cond.sql, params: cond.params }).map((h) => h.id);
  const pool = q.queryVector ? (q.pool ?? loadVectorPool(store, q, q.model ?? 'default')) : undefined;
  const vector = q.queryVector && pool ? vectorFacts(pool, q.queryVector, q, limit) : [];
  const lists: RankedIds[] = vector.length
    ? [
        { ids: vector, weight: SEMANTIC_WEIGHT },
        { ids: bm25, weight: BM25_WEIGHT },
      ]
    : [{ ids: bm25, weight: 1 }];
  const fused = reciprocalRankFusion(lists);
  if (fused.length === 0) return [];
  const facts = new Map(
    factsByIds(
      store.db,
      fused.map((f) => f.id),
    ).map((f) => [f.id, f]),
  );
  const now = store.clock.now();
  const reference = q.at ? new Date(q.at) : q.knownAt ? new Date(q.knownAt) : now;
  const acts = activations(store.db, [...facts.values()], now);
  const out: ScoredFact[] = [];
  for (const { id, score: rrf } of fused) {
    const fact = facts.get(id);
    if (!fact) continue;
    const activation = acts.get(id) ?? Number.NEGATIVE_INFINITY;
    const days = (reference.getTime() - Date.parse(fact.valid_at)) / DAY_MS;
    const superseded = fact.expired_at !== null || (fact.invalid_at !== null && fact.invalid_at <= now.toISOString());
    const score =
      rrf * activationFactor(activation) * fact.confidence * recencyDecay(days) * (q.includeHistory && superseded ? SUPERSEDED_PENALTY : 1);
    const bRank = bm25.indexOf(id);
    const vRank = vector.indexOf(id);
    out.push({
      fact,
      score,
      rrf,
      activation,
      ranks: { ...(bRank >= 0 ? { bm25: bRank + 1 } : {}), ...(vRank >= 0 ? { vector: vRank + 1 } : {}) },
    });
  }
  return out.sort((a, b) => b.score - a.score || b.fact.valid_at.localeCompare(a.fact.valid_at) || a.fact.id - b.fact.id);
}

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
import type { Store } from '../store/store.js';
import { activations } from './access.js';
import { activationFactor } from './activation.js';
import { type Fact, selectFacts } from './facts.js';
import { bm25Facts } from './fts.js';
import { BM25_WEIGHT, SEMANTIC_WEIGHT, type RankedIds, reciprocalRankFusion, recencyDecay } from './fusion.js';
import type { MemoryType } from './memory-type.js';
import type { Relation } from './ontology.js';
import { cosine } from './similarity.js';
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

export function loadVectorPool(store: Store, scope: Pick<FactSearch, 'at' | 'knownAt' | 'includeHistory' | 'projects'>, model: string): VectorPool {
  const cond = conditions(store, { ...scope, text: '' });
  // Raw rows: at 10k facts, building row objects costs as much as reading the vectors.
  const rows = store.db
    .prepare(`SELECT f.id, f.relation, f.memory_type, f.embedding FROM graph_facts f WHERE ${cond.sql} AND f.embedding_model = @model`)
    .raw()
    .all({ ...cond.params, model }) as [number, Relation, MemoryType, Buffer][];
  // One allocation for all vectors; each entry is a view into it.
  const dims = rows.length ? Math.max(...rows.slice(0, 1).map((r) => r[3].byteLength / 4)) : 0;
  const all = new Float32Array(rows.length * dims);
  const bytes = new Uint8Array(all.buffer);
  const entries: VectorPool['entries'] = [];
  rows.forEach(([id, relation, memory_type, embedding], i) => {
    if (embedding.byteLength !== dims * 4) return;
    bytes.set(embedding, i * dims * 4);
    entries.push({ id, relation, memory_type, vector: all.subarray(i * dims, (i + 1) * dims) });
  });
  return { model, entries };
}

/** Fact ids by cosine to the query vector among the pool's facts that pass the filters, best first. */
export function vectorFacts(pool: VectorPool, vector: Float32Array, q: Pick<FactSearch, 'relations' | 'memoryTypes'>, limit: number): number[] {
  const scored: { id: number; c: number }[] = [];
  for (const e of pool.entries) {
    if (q.relations && !q.relations.includes(e.relation)) continue;
    if (q.memoryTypes && !q.memoryTypes.includes(e.memory_type)) continue;
    scored.push({ id: e.id, c: cosine(vector, e.vector) });
  }
  return scored
    .sort((a, b) => b.c - a.c || a.id - b.id)
    .slice(0, limit)
    .map((s) => s.id);
}

export function searchFacts(store: Store, q: FactSearch): ScoredFact[] {
  const limit = q.limit ?? DEFAULT_LIST_LIMIT;
  const cond = conditions(store, q);
  const bm25 = bm25Facts(store.db, q.text, { limit, where: cond.sql, params: cond.params }).map((h) => h.id);
  const pool = q.queryVector ? (q.pool ?? loadVectorPool(store, q, q.model ?? 'default')) : undefined;
  const vector = q.queryVector && pool ? vectorFacts(pool, q.queryVector, q, limit) : [];
  const lists: RankedIds[] = vector.length ? [{ ids: vector, weight: SEMANTIC_WEIGHT }, { ids: bm25, weight: BM25_WEIGHT }] : [{ ids: bm25, weight: 1 }];
  const fused = reciprocalRankFusion(lists);
  if (fused.length === 0) return [];
  const facts = new Map(selectFacts(store.db, `f.id IN (${fused.map((f) => f.id).join(',')})`).map((f) => [f.id, f]));
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
    const score = rrf * activationFactor(activation) * fact.confidence * recencyDecay(days) * (q.includeHistory && superseded ? SUPERSEDED_PENALTY : 1);
    const bRank = bm25.indexOf(id);
    const vRank = vector.indexOf(id);
    out.push({ fact, score, rrf, activation, ranks: { ...(bRank >= 0 ? { bm25: bRank + 1 } : {}), ...(vRank >= 0 ? { vector: vRank + 1 } : {}) } });
  }
  return out.sort((a, b) => b.score - a.score || b.fact.valid_at.localeCompare(a.fact.valid_at) || a.fact.id - b.fact.id);
}

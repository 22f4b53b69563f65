/**
 * Searching facts (the semantic search and BM25, fused by RRF), then scored:
 *
 *   score = rrf x activationFactor(ACT-R) x confidence x exp(-days / 90)
 *
 * days counts from the fact's valid_at to the instant asked about (now, or the past
 * instant of a time-travel query). With history included, a superseded fact keeps half
 * its score, so the value that replaced it ranks first.
 */
import { DAY_MS } from '../core/clock.js';
import type { FactFilter, GraphVectorRepository } from '../store/graph/index.js';
import type { Store } from '../store/store.js';
import { activations } from './access.js';
import { activationFactor } from './activation.js';
import type { Fact } from './facts.js';
import { factTerms } from '../text/terms.js';
import { BM25_WEIGHT, SEMANTIC_WEIGHT, type RankedIds, reciprocalRankFusion, recencyDecay } from './fusion.js';
import type { MemoryType } from './memory-type.js';
import type { Relation } from './ontology.js';
import { dot, l2normalize } from '../embed/vector-math.js';
import { factTime } from './temporal.js';

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

/** The facts a search ranks: its time (or all history), projects, relations and memory types. */
function scope(
  store: Store,
  q: Pick<FactSearch, 'at' | 'knownAt' | 'includeHistory' | 'projects' | 'relations' | 'memoryTypes'>,
): FactFilter {
  return {
    time: q.includeHistory ? { history: true } : factTime(q, store.clock.now()),
    projects: q.projects,
    relations: q.relations,
    memoryTypes: q.memoryTypes,
  };
}

/** Unit-length fact vectors, read once per connection (one repository each) and model, kept until the vector generation moves. */
const vectorCache = new WeakMap<GraphVectorRepository, { generation: number; model: string; byId: Map<number, Float32Array> }>();

function unitVectors(vectors: GraphVectorRepository, model: string, ids: readonly number[]): Map<number, Float32Array> {
  const generation = vectors.generation();
  let cache = vectorCache.get(vectors);
  if (!cache || cache.generation !== generation || cache.model !== model) {
    cache = { generation, model, byId: new Map() };
    vectorCache.set(vectors, cache);
  }
  const missing = ids.filter((id) => !cache.byId.has(id));
  // Kept unit length, so the per-query cosine is one dot product.
  for (const [id, v] of vectors.ofFacts(missing, model)) cache.byId.set(id, l2normalize(v));
  return cache.byId;
}

/**
 * The vectors of the facts in scope. The scope is read as ids (cheap: no blobs); the vectors
 * come from a per-connection cache, so a long-lived process (the MCP server) reads each once.
 */
export function loadVectorPool(
  store: Store,
  search: Pick<FactSearch, 'at' | 'knownAt' | 'includeHistory' | 'projects'>,
  model: string,
): VectorPool {
  const refs = store.graph.vectors.refs(scope(store, search), model);
  const vectors = unitVectors(
    store.graph.vectors,
    model,
    refs.map((r) => r.id),
  );
  const entries: VectorPool['entries'] = [];
  for (const { id, relation, memory_type } of refs) {
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
    // Pool vectors are unit length (see unitVectors); another model's length is never similar.
    scores.push(e.vector.length === unit.length ? dot(unit, e.vector) : 0);
  }
  return limit > 0 ? topIds(ids, scores, limit) : [];
}

export function searchFacts(store: Store, q: FactSearch): ScoredFact[] {
  const limit = q.limit ?? DEFAULT_LIST_LIMIT;
  const bm25 = store.graph.facts.matchText(factTerms(q.text), scope(store, q), limit).map((h) => h.id);
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
  const facts = new Map(store.graph.facts.byIds(fused.map((f) => f.id)).map((f) => [f.id, f]));
  const now = store.clock.now();
  const reference = q.at ? new Date(q.at) : q.knownAt ? new Date(q.knownAt) : now;
  const acts = activations(store, [...facts.values()], now);
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

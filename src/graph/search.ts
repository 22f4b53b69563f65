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
import { blobToVector, cosine } from './similarity.js';
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

/** Fact ids by cosine to the query vector among facts matching the condition, best first. */
export function vectorFacts(store: Store, vector: Float32Array, model: string, cond: { sql: string; params: Record<string, unknown> }, limit: number): number[] {
  const rows = store.db
    .prepare(`SELECT f.id, f.embedding FROM graph_facts f WHERE ${cond.sql} AND f.embedding_model = @model`)
    .all({ ...cond.params, model }) as { id: number; embedding: Buffer }[];
  const scored: { id: number; c: number }[] = [];
  for (const r of rows) {
    const v = blobToVector(r.embedding);
    if (v) scored.push({ id: r.id, c: cosine(vector, v) });
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
  const vector = q.queryVector ? vectorFacts(store, q.queryVector, q.model ?? 'default', cond, limit) : [];
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

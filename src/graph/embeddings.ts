/**
 * Fact vectors are their search documents' vectors: one embedding model for every
 * collection, kept by search's Embedder (lazy repair during queries, `homunculus embed`).
 * What the graph adds is the rule that two current facts about the same entity whose
 * vectors have cosine > 0.92 state one fact: the older is superseded by the newer.
 */
import { FACTS_COLLECTION } from '../core/graph-vocabulary.js';
import { bufferToVector } from '../embed/vector-math.js';
import type { Embedder } from '../search/embeddings.js';
import type { Store } from '../store/store.js';
import { isCurrent } from './facts.js';
import { COSINE_DUPLICATE, cosine } from './similarity.js';

/** The search documents of these facts, by fact id. */
export function factDocuments(store: Store, factIds: readonly number[]): Map<number, number> {
  const rows = store.documents.rowIds(FACTS_COLLECTION, [...new Set(factIds)].map(String));
  return new Map([...rows].map(([ext, row]) => [Number(ext), row]));
}

/** The vectors of these facts made by the model `key`, by fact id. */
export function factVectors(store: Store, factIds: readonly number[], key: string): Map<number, Float32Array> {
  const docs = factDocuments(store, factIds);
  const factOf = new Map([...docs].map(([fact, row]) => [row, fact]));
  const out = new Map<number, Float32Array>();
  for (const [row, bytes] of store.documents.vectors([...docs.values()], key)) {
    const fact = factOf.get(row);
    if (fact !== undefined) out.set(fact, bufferToVector(bytes));
  }
  return out;
}

/** Embeds the facts that have no vector of the embedder's model yet; returns how many it embedded. */
export function embedFacts(embedder: Embedder, store: Store, factIds: readonly number[]): Promise<number> {
  const docs = [...factDocuments(store, factIds).values()];
  return embedder.repair(docs, docs.length);
}

export interface EmbeddingDuplicate {
  kept: number;
  superseded: number;
  cosine: number;
}

/**
 * For each given fact, supersedes current facts about the same source or target whose
 * vector (of the model `key`) has cosine above the threshold; the older of a pair gives way.
 */
export function deduplicateByEmbedding(
  store: Store,
  factIds: readonly number[],
  options: { key: string; threshold?: number },
): EmbeddingDuplicate[] {
  const threshold = options.threshold ?? COSINE_DUPLICATE;
  const now = store.clock.now();
  const nowIso = now.toISOString();
  const { facts } = store.graph;
  const out: EmbeddingDuplicate[] = [];
  store.transaction(() => {
    for (const id of factIds) {
      const fact = facts.get(id);
      if (!fact || !isCurrent(fact, now)) continue;
      const neighbours = facts.summaries({ time: { now: nowIso }, sameSourceOrTarget: fact }).filter((f) => f.id !== id);
      const vectors = factVectors(store, [id, ...neighbours.map((f) => f.id)], options.key);
      const v = vectors.get(id);
      if (!v) continue;
      for (const other of neighbours) {
        const w = vectors.get(other.id);
        const c = w ? cosine(v, w) : 0;
        if (c <= threshold) continue;
        const [older, newer] = other.id < fact.id ? [other.id, fact.id] : [fact.id, other.id];
        facts.close(older, { expiredAt: nowIso, invalidAt: nowIso, reason: 'duplicate', supersededBy: newer });
        out.push({ kept: newer, superseded: older, cosine: c });
        if (older === fact.id) break;
      }
    }
  });
  return out;
}

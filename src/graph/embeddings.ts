/**
 * Embeddings of facts and entities through an injected function, so the graph depends on
 * no particular model. Vectors carry the model's key; vectors of two models are never
 * compared. Facts are embedded lazily (at most 20 per retrieval call), and two
 * current facts about the same entity with cosine > 0.92 are one fact: the older is
 * superseded by the newer.
 */
import type { Store } from '../store/store.js';
import { isCurrent } from './facts.js';
import { RELATION_LABELS, type Relation } from './ontology.js';
import { COSINE_DUPLICATE, cosine } from './similarity.js';

/** `embed(texts) -> vectors`, one per text, in order; `model` names the vectors (default 'default'). */
export type EmbedFn = ((texts: readonly string[]) => Promise<Float32Array[]> | Float32Array[]) & { model?: string };

export const modelOf = (embed: EmbedFn): string => embed.model ?? 'default';

/** The lazy repair: at most this many embeddings per retrieval call. */
export const LAZY_EMBED_LIMIT = 20;

export const factEmbeddingText = (f: { source: string; relation: Relation; target: string; description: string }): string =>
  `${f.source} ${RELATION_LABELS[f.relation]} ${f.target}: ${f.description}`;

export interface EmbedReport {
  facts: number[];
  entities: number;
}

/** Embeds current facts (and entities) that have no vector of this model yet. */
export async function embedPending(store: Store, embed: EmbedFn, options: { limit?: number } = {}): Promise<EmbedReport> {
  const model = modelOf(embed);
  const limit = options.limit ?? LAZY_EMBED_LIMIT;
  const vectors = store.graph.vectors;
  const facts = vectors.unembeddedFacts({ time: { now: store.clock.now().toISOString() } }, model, limit);
  const entities = vectors.unembeddedEntities(model, limit);
  if (facts.length === 0 && entities.length === 0) return { facts: [], entities: 0 };
  const computed = await embed([...facts.map(factEmbeddingText), ...entities.map((e) => `${e.name} (${e.type.replace('_', ' ')})`)]);
  if (computed.length !== facts.length + entities.length)
    throw new Error(`The embedder returned ${computed.length} vectors for ${facts.length + entities.length} texts.`);
  store.transaction(() => {
    facts.forEach((f, i) => vectors.setFact(f.id, model, computed[i] as Float32Array));
    entities.forEach((e, i) => vectors.setEntity(e.id, model, computed[facts.length + i] as Float32Array));
  });
  return { facts: facts.map((f) => f.id), entities: entities.length };
}

/** Current facts and entities still without a vector of this model. */
export function pendingEmbeddings(store: Store, model: string): number {
  const pending = store.graph.vectors.countUnembedded({ time: { now: store.clock.now().toISOString() } }, model);
  return pending.facts + pending.entities;
}

/** Bulk repair: embeds every current fact and entity without a vector of this model, in batches. */
export async function embedAllPending(
  store: Store,
  embed: EmbedFn,
  onProgress?: (done: number, total: number) => void,
): Promise<{ facts: number; entities: number }> {
  const total = pendingEmbeddings(store, modelOf(embed));
  const done = { facts: 0, entities: 0 };
  while (done.facts + done.entities < total) {
    const batch = await embedPending(store, embed, { limit: 64 });
    if (batch.facts.length === 0 && batch.entities === 0) break;
    done.facts += batch.facts.length;
    done.entities += batch.entities;
    onProgress?.(Math.min(total, done.facts + done.entities), total);
  }
  return done;
}

export interface EmbeddingDuplicate {
  kept: number;
  superseded: number;
  cosine: number;
}

/**
 * For each given fact, supersedes current facts about the same source or target whose
 * vector (same model) has cosine above the threshold; the older of a pair gives way.
 */
export function deduplicateByEmbedding(
  store: Store,
  factIds: readonly number[],
  options: { model?: string; threshold?: number } = {},
): EmbeddingDuplicate[] {
  const threshold = options.threshold ?? COSINE_DUPLICATE;
  const model = options.model ?? 'default';
  const now = store.clock.now();
  const nowIso = now.toISOString();
  const { facts, vectors } = store.graph;
  const out: EmbeddingDuplicate[] = [];
  store.transaction(() => {
    for (const id of factIds) {
      const fact = facts.get(id);
      const v = fact && isCurrent(fact, now) ? vectors.ofFacts([id], model).get(id) : undefined;
      if (!fact || !v) continue;
      const neighbours = vectors.refs({ time: { now: nowIso }, sameSourceOrTarget: fact }, model).filter((r) => r.id !== id);
      const neighbourVectors = vectors.ofFacts(
        neighbours.map((r) => r.id),
        model,
      );
      for (const other of neighbours) {
        const w = neighbourVectors.get(other.id);
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

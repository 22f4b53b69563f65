/**
 * Embeddings of facts and entities through an injected function, so the graph depends on
 * no particular model. Vectors carry the model's key; vectors of two models are never
 * compared. Seed 003: facts are embedded lazily (at most 20 per retrieval call), and two
 * current facts about the same entity with cosine > 0.92 are one fact: the older is
 * superseded by the newer.
 */
import { writeTx } from '../store/db.js';
import type { Store } from '../store/store.js';
import { CURRENT, closeFact } from './facts.js';
import { RELATION_LABELS, type Relation } from './ontology.js';
import { COSINE_DUPLICATE, blobToVector, cosine, vectorToBlob } from './similarity.js';

/** `embed(texts) -> vectors`, one per text, in order; `model` names the vectors (default 'default'). */
export type EmbedFn = ((texts: readonly string[]) => Promise<Float32Array[]> | Float32Array[]) & { model?: string };

export const modelOf = (embed: EmbedFn): string => embed.model ?? 'default';

/** Seed 003's lazy repair: at most this many embeddings per retrieval call. */
export const LAZY_EMBED_LIMIT = 20;

/**
 * No vector of this model (a changed description clears both columns). Written as index
 * ranges in a subquery: otherwise SQLite scans every row once all are embedded.
 */
const OTHER_MODEL = (t: string, table = t === 'f' ? 'graph_facts' : 'graph_entities'): string =>
  `${t}.id IN (SELECT id FROM ${table} WHERE embedding_model IS NULL OR embedding_model < @model OR embedding_model > @model)`;

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
  const now = store.clock.now().toISOString();
  const facts = store.db
    .prepare(
      `SELECT f.id, s.name AS source, t.name AS target, f.relation, f.description FROM graph_facts f
       JOIN graph_entities s ON s.id = f.source_id JOIN graph_entities t ON t.id = f.target_id
       WHERE ${CURRENT} AND ${OTHER_MODEL('f')} ORDER BY f.id DESC LIMIT @limit`,
    )
    .all({ now, model, limit }) as { id: number; source: string; target: string; relation: Relation; description: string }[];
  const entities = store.db
    .prepare(`SELECT e.id, e.name, e.type FROM graph_entities e WHERE ${OTHER_MODEL('e')} ORDER BY e.id DESC LIMIT @limit`)
    .all({ model, limit }) as { id: number; name: string; type: string }[];
  if (facts.length === 0 && entities.length === 0) return { facts: [], entities: 0 };
  const vectors = await embed([...facts.map(factEmbeddingText), ...entities.map((e) => `${e.name} (${e.type.replace('_', ' ')})`)]);
  if (vectors.length !== facts.length + entities.length)
    throw new Error(`The embedder returned ${vectors.length} vectors for ${facts.length + entities.length} texts.`);
  writeTx(store.db, () => {
    const setFact = store.db.prepare('UPDATE graph_facts SET embedding = ?, embedding_model = ? WHERE id = ?');
    facts.forEach((f, i) => setFact.run(vectorToBlob(vectors[i] as Float32Array), model, f.id));
    const setEntity = store.db.prepare('UPDATE graph_entities SET embedding = ?, embedding_model = ? WHERE id = ?');
    entities.forEach((e, i) => setEntity.run(vectorToBlob(vectors[facts.length + i] as Float32Array), model, e.id));
  });
  return { facts: facts.map((f) => f.id), entities: entities.length };
}

/** Current facts and entities still without a vector of this model. */
export function pendingEmbeddings(store: Store, model: string): number {
  const now = store.clock.now().toISOString();
  const facts = store.db
    .prepare(`SELECT count(*) AS n FROM graph_facts f WHERE ${CURRENT} AND ${OTHER_MODEL('f')}`)
    .get({ now, model }) as { n: number };
  const entities = store.db.prepare(`SELECT count(*) AS n FROM graph_entities e WHERE ${OTHER_MODEL('e')}`).get({ model }) as { n: number };
  return facts.n + entities.n;
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
  const now = store.clock.now().toISOString();
  const out: EmbeddingDuplicate[] = [];
  const row = store.db.prepare(
    `SELECT f.id, f.source_id, f.target_id, f.embedding FROM graph_facts f WHERE f.id = @id AND ${CURRENT} AND f.embedding_model = @model`,
  );
  const neighbours = store.db.prepare(
    `SELECT f.id, f.embedding FROM graph_facts f WHERE f.id != @id AND ${CURRENT} AND f.embedding_model = @model AND (f.source_id = @s OR f.target_id = @t)`,
  );
  writeTx(store.db, () => {
    for (const id of factIds) {
      const fact = row.get({ id, now, model }) as { id: number; source_id: number; target_id: number; embedding: Buffer } | undefined;
      const v = blobToVector(fact?.embedding);
      if (!fact || !v) continue;
      for (const other of neighbours.all({ id, now, model, s: fact.source_id, t: fact.target_id }) as { id: number; embedding: Buffer }[]) {
        const w = blobToVector(other.embedding);
        const c = w ? cosine(v, w) : 0;
        if (c <= threshold) continue;
        const [older, newer] = other.id < fact.id ? [other.id, fact.id] : [fact.id, other.id];
        closeFact(store.db, older, { expiredAt: now, invalidAt: now, reason: 'duplicate', supersededBy: newer });
        out.push({ kept: newer, superseded: older, cosine: c });
        if (older === fact.id) break;
      }
    }
  });
  return out;
}

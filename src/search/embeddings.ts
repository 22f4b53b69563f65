/**
 * Keeping document embeddings in step with the configured model: bulk embedding with
 * progress, lazy repair during queries (at most 20 a query), the stored
 * fingerprint, and a cache of query embeddings.
 */
import { LruCache } from '../core/lru.js';
import { type EmbeddingFingerprint, type EmbeddingProvider, fingerprintKey, fingerprintOf } from '../embed/provider.js';
import type { DocumentRepository } from '../store/documents/index.js';
import type { Store } from '../store/store.js';
import { readFingerprint, VectorIndex, vectorWrite, writeFingerprint } from './vectors.js';

export const LAZY_REPAIR_MAX = 20;
export const QUERY_CACHE_SIZE = 512;

/** A provider bound to one store: its vector index and query-embedding cache. */
export class Embedder {
  readonly fingerprint: EmbeddingFingerprint;
  readonly key: string;
  readonly index: VectorIndex;
  private readonly queryCache = new LruCache<string, Float32Array>(QUERY_CACHE_SIZE);
  private readonly documents: DocumentRepository;

  constructor(
    private readonly store: Store,
    readonly provider: EmbeddingProvider,
  ) {
    this.fingerprint = fingerprintOf(provider);
    this.key = fingerprintKey(this.fingerprint);
    this.documents = store.documents;
    this.index = new VectorIndex(store.documents, this.fingerprint);
  }

  /** Records this provider's fingerprint when none is on record yet (the first vectors name the model). */
  private recordFingerprint(): void {
    if (!readFingerprint(this.documents)) this.store.transaction(() => writeFingerprint(this.documents, this.fingerprint));
  }

  async embedQuery(text: string): Promise<Float32Array> {
    const cached = this.queryCache.get(text);
    if (cached) return cached;
    const [vector] = await this.provider.embed([text]);
    if (!vector) throw new Error('the embedding provider returned no vector');
    this.queryCache.set(text, vector);
    return vector;
  }

  /** The stored fingerprint differs from this provider's: vectors must be rebuilt (`homunculus embed`). */
  modelChanged(): { from: EmbeddingFingerprint } | undefined {
    const stored = readFingerprint(this.documents);
    if (stored && fingerprintKey(stored) !== this.key) return { from: stored };
    return undefined;
  }

  /** Embeds the given documents (ids) in batches and stores their vectors. */
  async embedDocuments(ids: readonly number[], onProgress?: (done: number, total: number) => void): Promise<number> {
    const batch = Math.max(1, this.provider.batchSize);
    let done = 0;
    for (let i = 0; i < ids.length; i += batch) {
      const slice = ids.slice(i, i + batch);
      const rows = this.documents.embeddingTexts(slice);
      const vectors = await this.provider.embed(rows.map((r) => r.body));
      if (vectors.length !== rows.length) throw new Error(`The embedder returned ${vectors.length} vectors for ${rows.length} texts.`);
      this.store.transaction(() =>
        this.documents.writeVectors(
          this.key,
          rows.map((r, j) => vectorWrite(r.id, vectors[j] as Float32Array)),
        ),
      );
      done += slice.length;
      onProgress?.(done, ids.length);
      // Ctrl-C is handled only when the event loop turns, which a model computing in place never lets it do.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return done;
  }

  /**
   * Brings every document up to this model: records the fingerprint, drops vectors of
   * any other model, and embeds what is missing. Returns how many were embedded.
   */
  async syncAll(
    options: { onProgress?: (done: number, total: number) => void; force?: boolean } = {},
  ): Promise<{ embedded: number; removedStale: number; previous?: EmbeddingFingerprint }> {
    const previous = readFingerprint(this.documents);
    const removedStale = this.store.transaction(() => {
      writeFingerprint(this.documents, this.fingerprint);
      return this.documents.deleteStaleVectors(this.key);
    });
    // --force replaces each vector in place: one interrupted leaves the rest as they were, not missing.
    const ids = options.force ? this.documents.documentIds() : this.documents.missingVectorIds(this.key);
    const embedded = await this.embedDocuments(ids, options.onProgress);
    return { embedded, removedStale, previous };
  }

  /** Embeds every document that lacks a vector of this model (after an import), recording the model if none is. */
  async embedMissing(onProgress?: (done: number, total: number) => void): Promise<number> {
    this.recordFingerprint();
    return this.embedDocuments(this.documents.missingVectorIds(this.key), onProgress);
  }

  /** Embeds up to `max` of the given documents that lack a vector (lazy repair during a query). */
  async repair(ids: readonly number[], max = LAZY_REPAIR_MAX): Promise<number> {
    if (max <= 0 || ids.length === 0) return 0;
    this.recordFingerprint();
    const missing = this.documents.missingVectorIds(this.key, { among: ids, limit: max });
    return missing.length === 0 ? 0 : this.embedDocuments(missing);
  }
}

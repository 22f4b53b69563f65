/**
 * The mind's recall through our search (seed 004: the N most recent memories plus the top K
 * by meaning). The memory log stays the truth; its lines are indexed in a store of the
 * instance's own (mind/index/, derived and safe to delete), so the mind's thoughts never
 * surface in the coding context, and each memory is embedded once, by the configured
 * encoder (the bundled one by default), not on every cycle.
 */
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import { contentId } from '../core/ids.js';
import { loadConfig } from '../core/config.js';
import { homePaths } from '../core/paths.js';
import { createProvider, embeddingConfig } from '../embed/config.js';
import { runtimeDir } from '../embed/runtime.js';
import type { Recaller } from '../mind/loops.js';
import { DEFAULT_RECALL, recallFrom } from '../mind/recall.js';
import type { Memory } from '../mind/schemas.js';
import type { DocumentInput } from '../store/documents/index.js';
import { Embedder } from '../search/embeddings.js';
import { search } from '../search/search.js';
import { openStore, type Store } from '../store/store.js';

export const MIND_COLLECTION = 'mind';

/** A memory's id in the index: its content, so the same line is never indexed twice. */
export const memoryId = (m: Memory): string => contentId(m.timestamp, m.author, m.situation, m.description);

const asDocument = (id: string, m: Memory): DocumentInput => ({
  id,
  collection: MIND_COLLECTION,
  text: `${m.situation}\n${m.description}`,
  ts: m.timestamp,
  metadata: { author: m.author, weight: m.weight },
});

/** Indexes the memories the index lacks; returns how many were added. */
export function syncIndex(store: Store, memories: readonly Memory[]): number {
  const byId = new Map(memories.map((m) => [memoryId(m), m]));
  const known = store.documents.rowIds(MIND_COLLECTION, [...byId.keys()]);
  const missing = [...byId].filter(([id]) => !known.has(id)).map(([id, m]) => asDocument(id, m));
  if (missing.length) store.transaction(() => store.documents.upsert(missing, store.clock.now().toISOString()));
  return missing.length;
}

export interface MindIndex {
  /** The recall a cycle uses: recent memories plus what the search finds for its situation. */
  recaller: Recaller;
  close(): Promise<void>;
}

/** Above this many new memories, indexing them is said before it starts (the encoder takes a while). */
const SAY_ABOVE = 200;

/** Opens the instance's index with the home's configured encoder (none: BM25 alone). */
export async function openMindIndex(
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
  clock: Clock,
  note?: (text: string) => void,
): Promise<MindIndex> {
  const provider = await createProvider(embeddingConfig(loadConfig(homePaths(home).config), env), {
    env,
    runtimeDir: runtimeDir(home, env),
  });
  const store = openStore({ home: join(root, 'index'), clock });
  const embedder = provider ? new Embedder(store, provider) : null;
  const recaller: Recaller = async (visible, query) => {
    const added = syncIndex(store, visible);
    if (embedder && added > SAY_ABOVE)
      note?.(`indexing ${added} memories for recall with ${embedder.key} (once; later cycles add only new ones)`);
    await embedder?.embedMissing();
    const byId = new Map(visible.map((m) => [memoryId(m), m]));
    // More hits than needed: some are recent ones (shown anyway) or not visible to this loop.
    const res = await search(store, embedder, {
      query,
      filter: { collections: [MIND_COLLECTION] },
      limit: DEFAULT_RECALL.topK * 3,
      recency: false,
    });
    const found = res.results.flatMap((h) => {
      const memory = byId.get(h.id);
      return memory ? [{ memory, score: h.score }] : [];
    });
    return recallFrom(visible, found, { ...DEFAULT_RECALL, now: clock.now() });
  };
  return {
    recaller,
    async close() {
      store.close();
      await provider?.close?.();
    },
  };
}

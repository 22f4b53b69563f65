/** The embedding model of a server: loaded once, on the first tool call that needs it. */
import type { Embedder } from '../search/embeddings.js';
import { embedderFor } from '../search/open.js';
import type { Store } from '../store/store.js';

const embedders = new WeakMap<Store, Promise<Embedder | null>>();

/** The configured embedder, or null when embeddings are off or the model cannot load (search then runs full-text only). */
export function embedderOnce(store: Store): Promise<Embedder | null> {
  let pending = embedders.get(store);
  if (!pending) {
    pending = embedderFor(store).catch(() => null);
    embedders.set(store, pending);
  }
  return pending;
}

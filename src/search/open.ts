/** The embedder a command uses: the configured provider bound to the store, or null when turned off. */
import { loadConfig } from '../core/config.js';
import { createProvider, embeddingConfig } from '../embed/config.js';
import { runtimeDir } from '../embed/runtime.js';
import type { Store } from '../store/store.js';
import { Embedder } from './embeddings.js';

export async function embedderFor(store: Store, env: NodeJS.ProcessEnv = process.env): Promise<Embedder | null> {
  const provider = await createProvider(embeddingConfig(loadConfig(store.paths.config), env), {
    env,
    runtimeDir: runtimeDir(store.paths.home, env),
  });
  return provider ? new Embedder(store, provider) : null;
}

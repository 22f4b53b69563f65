/** Embedding what was just stored, with a progress bar; shared by `memory add/import` and `sync`. */
import { errorMessage } from '../core/errors.js';
import type { Embedder } from '../search/embeddings.js';
import { embedderFor } from '../search/open.js';
import type { Store } from '../store/store.js';
import { progressBar } from './progress.js';

/** Embeds every document without a vector of the configured model; never throws (a warning says what failed). */
export async function embedNew(
  store: Store,
  enabled: boolean,
  options: { progress?: boolean } = {},
): Promise<{ embedded: number; warning?: string }> {
  if (!enabled) return { embedded: 0 };
  let embedder: Embedder | null;
  try {
    embedder = await embedderFor(store);
    if (!embedder) return { embedded: 0 };
    const bar = options.progress === false ? undefined : progressBar('embedding', 1);
    let announced = false;
    const embedded = await embedder.embedMissing((done, total) => {
      if (!announced && total > 1000) {
        process.stderr.write(
          `homunculus: embedding ${total} documents with ${embedder?.key}; interrupting is safe (\`homunculus embed\` resumes).\n`,
        );
        announced = true;
      }
      bar?.update(done, total);
    });
    bar?.finish();
    return { embedded };
  } catch (err) {
    return {
      embedded: 0,
      warning: `Stored, but not embedded: ${errorMessage(err)} (run \`homunculus embed\` later; queries repair up to 20 a time).`,
    };
  }
}

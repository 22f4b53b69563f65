/**
 * Choosing the embedding provider from config.json's "embedding" section:
 *
 *   {"embedding": {"provider": "use-lite"}}                                     (default, offline)
 *   {"embedding": {"provider": "onnx", "path": "/models/all-MiniLM-L6-v2"}}
 *   {"embedding": {"provider": "openai", "url": "http://127.0.0.1:8080/v1", "model": "text-embedding-3-small", "apiKeyEnv": "OPENAI_API_KEY"}}
 *   {"embedding": {"provider": "ollama", "url": "http://127.0.0.1:11434", "model": "nomic-embed-text"}}
 *   {"embedding": {"provider": "none"}}                                          (full-text search only)
 *
 * HOMUNCULUS_EMBEDDING=none|use-lite overrides the provider (handy for scripts and tests).
 */
import { z } from 'zod';
import type { Config } from '../core/config.js';
import { HomunculusError } from '../core/errors.js';
import { onnxProvider } from './onnx.js';
import type { EmbeddingProvider } from './provider.js';
import { remoteProvider } from './remote.js';
import { useLiteProvider } from './use-lite.js';

const schema = z.object({
  provider: z.enum(['use-lite', 'onnx', 'openai', 'ollama', 'none']).default('use-lite'),
  model: z.string().min(1).optional(),
  path: z.string().min(1).optional(),
  url: z.string().url().optional(),
  apiKeyEnv: z.string().min(1).optional(),
  dims: z.number().int().positive().optional(),
  batchSize: z.number().int().positive().max(1024).optional(),
  dtype: z.enum(['fp32', 'fp16', 'q8', 'int8', 'uint8', 'q4']).optional(),
  pooling: z.enum(['mean', 'cls']).optional(),
  prefix: z.string().optional(),
});

export type EmbeddingConfig = z.infer<typeof schema>;

export function embeddingConfig(config: Config, env: NodeJS.ProcessEnv = process.env): EmbeddingConfig {
  const parsed = schema.safeParse(config.embedding ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new HomunculusError('config', `config.json "embedding" is invalid: ${issue?.path.join('.') || 'section'}: ${issue?.message}`, {
      hint: 'See `homunculus embed --help` for the accepted settings, or remove the section to use the bundled encoder.',
    });
  }
  const override = env.HOMUNCULUS_EMBEDDING;
  if (override === 'none' || override === 'use-lite') return { ...parsed.data, provider: override };
  return parsed.data;
}

/** The configured provider, or null when embeddings are turned off. `runtimeDir` holds on-demand runtimes (runtime.ts). */
export async function createProvider(
  cfg: EmbeddingConfig,
  options: { env?: NodeJS.ProcessEnv; runtimeDir: string },
): Promise<EmbeddingProvider | null> {
  const env = options.env ?? process.env;
  switch (cfg.provider) {
    case 'none':
      return null;
    case 'use-lite':
      return useLiteProvider({ batchSize: cfg.batchSize });
    case 'onnx':
      if (!cfg.path)
        throw new HomunculusError('config', 'The onnx provider needs "embedding.path" (the model folder).', {
          hint: 'Add "path": "/path/to/model" under "embedding" in config.json.',
        });
      return onnxProvider({
        path: cfg.path,
        model: cfg.model,
        dtype: cfg.dtype,
        pooling: cfg.pooling,
        prefix: cfg.prefix,
        batchSize: cfg.batchSize,
        runtimeDir: options.runtimeDir,
      });
    case 'openai':
    case 'ollama': {
      if (!cfg.url || !cfg.model) {
        throw new HomunculusError('config', `The ${cfg.provider} provider needs "embedding.url" and "embedding.model".`, {
          hint: 'For example {"embedding": {"provider": "ollama", "url": "http://127.0.0.1:11434", "model": "nomic-embed-text"}}.',
        });
      }
      const apiKey = cfg.apiKeyEnv ? env[cfg.apiKeyEnv] : undefined;
      return remoteProvider({ kind: cfg.provider, url: cfg.url, model: cfg.model, apiKey, dims: cfg.dims, batchSize: cfg.batchSize });
    }
  }
}

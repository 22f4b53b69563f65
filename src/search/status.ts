/**
 * What `homunculus doctor` reports about the search index without loading any model:
 * how many documents are embedded, and whether their model is the configured one.
 */
import { basename } from 'node:path';
import type { EmbeddingConfig } from '../embed/config.js';
import type { EmbeddingFingerprint } from '../embed/provider.js';
import { USE_LITE_MODEL } from '../embed/use-lite.js';
import type { DocumentRepository, VectorCounts } from '../store/documents/index.js';
import { readFingerprint } from './vectors.js';

export interface IndexStatus extends VectorCounts {
  stored: EmbeddingFingerprint | undefined;
  /** The configured provider and model name (dims are known only once loaded). */
  configured: { provider: string; model: string };
  modelChanged: boolean;
}

export function configuredModel(cfg: EmbeddingConfig): { provider: string; model: string } {
  if (cfg.provider === 'use-lite') return { provider: 'use-lite', model: USE_LITE_MODEL };
  if (cfg.provider === 'onnx') return { provider: 'onnx', model: cfg.model ?? (cfg.path ? basename(cfg.path) : '') };
  return { provider: cfg.provider, model: cfg.model ?? '' };
}

export function indexStatus(documents: DocumentRepository, cfg: EmbeddingConfig): IndexStatus {
  const stored = readFingerprint(documents);
  const configured = configuredModel(cfg);
  const modelChanged = stored !== undefined && (stored.provider !== configured.provider || stored.model !== configured.model);
  const counts = documents.vectorCounts(stored ? `${stored.provider}:${stored.model}:${stored.dims}` : undefined);
  return { ...counts, stored, configured, modelChanged };
}

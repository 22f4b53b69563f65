/**
 * One interface for every embedding model: the bundled offline encoder, local ONNX
 * models through transformers.js, and remote OpenAI-compatible / Ollama endpoints.
 */

export interface EmbeddingProvider {
  /** 'use-lite' | 'onnx' | 'openai' | 'ollama' (or a test provider's name). */
  readonly provider: string;
  readonly model: string;
  readonly dims: number;
  /** Texts per call the model handles best. */
  readonly batchSize: number;
  /** Unit-length vectors, one per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close?(): Promise<void>;
}

/** Which model produced a vector: vectors of two fingerprints are never compared. */
export interface EmbeddingFingerprint {
  provider: string;
  model: string;
  dims: number;
}

export function fingerprintOf(p: Pick<EmbeddingProvider, 'provider' | 'model' | 'dims'>): EmbeddingFingerprint {
  return { provider: p.provider, model: p.model, dims: p.dims };
}

export function fingerprintKey(f: EmbeddingFingerprint): string {
  return `${f.provider}:${f.model}:${f.dims}`;
}

/** Long texts are cut before embedding: sentence encoders read only the first few hundred tokens anyway. */
const MAX_EMBED_CHARS = 2000;

export function clipForEmbedding(text: string): string {
  const t = text.trim();
  return t.length > MAX_EMBED_CHARS ? t.slice(0, MAX_EMBED_CHARS) : t || ' ';
}

/**
 * A provider wrapper that remembers embeddings on disk between benchmark runs
 * (`--embed-cache FILE`), so tuning the pipeline does not re-run a slow encoder.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { sha256 } from '../core/ids.js';
import type { EmbeddingProvider } from '../embed/provider.js';

export function cachedProvider(inner: EmbeddingProvider, file: string): EmbeddingProvider & { save(): void } {
  const store = new Map<string, Float32Array>();
  if (existsSync(file)) {
    const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    for (const [k, v] of Object.entries(data)) store.set(k, new Float32Array(new Uint8Array(Buffer.from(v, 'base64')).buffer));
  }
  const keyOf = (t: string) => sha256(`${inner.provider}:${inner.model}:${t}`).slice(0, 32);
  return {
    provider: inner.provider,
    model: inner.model,
    dims: inner.dims,
    batchSize: inner.batchSize,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !store.has(keyOf(t))))];
      for (let i = 0; i < missing.length; i += inner.batchSize) {
        const slice = missing.slice(i, i + inner.batchSize);
        const vectors = await inner.embed(slice);
        slice.forEach((t, j) => store.set(keyOf(t), vectors[j] as Float32Array));
      }
      return texts.map((t) => store.get(keyOf(t)) as Float32Array);
    },
    save() {
      const out: Record<string, string> = {};
      for (const [k, v] of store) out[k] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
      writeFileSync(file, JSON.stringify(out));
    },
  };
}

import { describe, expect, it } from 'vitest';
import { asEmbedFn, clipForEmbedding, fingerprintKey, type EmbeddingProvider } from './provider.js';

describe('provider helpers', () => {
  const provider: EmbeddingProvider = {
    provider: 'test',
    model: 'm',
    dims: 2,
    batchSize: 4,
    embed: async (texts) => texts.map((t) => new Float32Array([t.length, 1])),
  };

  it('names vectors by provider, model and dimensions', () => {
    expect(fingerprintKey({ provider: 'use-lite', model: 'universal-sentence-encoder-lite', dims: 512 })).toBe(
      'use-lite:universal-sentence-encoder-lite:512',
    );
  });

  it('adapts a provider to a plain embed function carrying its fingerprint', async () => {
    const fn = asEmbedFn(provider);
    expect(fn.model).toBe('test:m:2');
    expect((await fn(['abc']))[0]).toEqual(new Float32Array([3, 1]));
  });

  it('clips long and empty texts before embedding', () => {
    expect(clipForEmbedding('  ')).toBe(' ');
    expect(clipForEmbedding('x'.repeat(5000))).toHaveLength(2000);
  });
});

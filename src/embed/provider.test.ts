import { describe, expect, it } from 'vitest';
import { clipForEmbedding, fingerprintKey } from './provider.js';

describe('provider helpers', () => {
  it('names vectors by provider, model and dimensions', () => {
    expect(fingerprintKey({ provider: 'use-lite', model: 'universal-sentence-encoder-lite', dims: 512 })).toBe(
      'use-lite:universal-sentence-encoder-lite:512',
    );
  });

  it('clips long and empty texts before embedding', () => {
    expect(clipForEmbedding('  ')).toBe(' ');
    expect(clipForEmbedding('x'.repeat(5000))).toHaveLength(2000);
  });
});

import { describe, expect, it } from 'vitest';
import { hashEmbedding, hashProvider } from './hash.js';
import { cosine } from './vector-math.js';

describe('the hash embedder', () => {
  it('is deterministic, unit-length, and closer for shared wording', () => {
    const a = hashEmbedding('homunculus validates input with zod');
    expect([...a]).toEqual([...hashEmbedding('homunculus validates input with zod')]);
    expect(cosine(a, a)).toBeCloseTo(1);
    expect(cosine(a, hashEmbedding('homunculus validates its input with zod'))).toBeGreaterThan(
      cosine(a, hashEmbedding('the cat sat on the mat')),
    );
  });

  it('is a provider named by its dimensions', async () => {
    const provider = hashProvider(16);
    expect([provider.provider, provider.model, provider.dims]).toEqual(['hash', 'hash-16', 16]);
    expect(await provider.embed(['zod'])).toEqual([hashEmbedding('zod', 16)]);
  });
});

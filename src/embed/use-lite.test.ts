import { beforeAll, describe, expect, it } from 'vitest';
import type { EmbeddingProvider } from './provider.js';
import { USE_LITE_DIMS, useLiteProvider } from './use-lite.js';
import { cosine } from './vector-math.js';

// The real bundled model, loaded once for this file (it takes about a second).
let provider: EmbeddingProvider;
beforeAll(async () => {
  provider = useLiteProvider();
  await provider.embed(['warm up']);
});

describe('bundled USE-lite encoder', () => {
  it('embeds a paraphrase closer than an unrelated sentence', async () => {
    const [a, b, c] = await provider.embed([
      'The cat sat on the mat.',
      'A kitten was sitting on the rug.',
      'Stock markets fell sharply today.',
    ]);
    expect(a).toHaveLength(USE_LITE_DIMS);
    const paraphrase = cosine(a as Float32Array, b as Float32Array);
    const unrelated = cosine(a as Float32Array, c as Float32Array);
    expect(paraphrase).toBeGreaterThan(unrelated + 0.2);
  });

  it('returns unit vectors, one per text, in order, and copes with empty and huge inputs', async () => {
    const texts = ['', 'x'.repeat(100_000), 'deploy the service'];
    const out = await provider.embed(texts);
    expect(out).toHaveLength(3);
    for (const v of out) expect(Math.sqrt(v.reduce((s, x) => s + x * x, 0))).toBeCloseTo(1, 4);
    const [again] = await provider.embed(['deploy the service']);
    expect(cosine(again as Float32Array, out[2] as Float32Array)).toBeCloseTo(1, 5);
    expect(await provider.embed([])).toEqual([]);
  });
});

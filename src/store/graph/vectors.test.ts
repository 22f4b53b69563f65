import { describe, expect, it } from 'vitest';
import { blobToVector, vectorToBlob } from './vectors.js';

describe('vector blobs', () => {
  it('round-trips through a blob and rejects a torn one', () => {
    const v = new Float32Array([0.5, -1.25, 3]);
    expect([...(blobToVector(vectorToBlob(v)) ?? [])]).toEqual([0.5, -1.25, 3]);
    expect(blobToVector(Buffer.from([1, 2, 3]))).toBeUndefined();
    expect(blobToVector(null)).toBeUndefined();
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { testStore } from '../../test-support/store.js';

describe('stored vectors', () => {
  const store = testStore();
  afterAll(() => store.cleanup());
  const docs = store.documents;
  docs.upsert(
    [
      { id: 'a', title: 'Title', text: 'first', collection: 'memories', project: 'p1', ts: '2026-01-02T00:00:00.000Z' },
      { id: 'b', text: 'second', collection: 'notes' },
      { id: 'c', text: 'third', collection: 'memories' },
    ],
    '2026-01-01T00:00:00.000Z',
  );
  const bytes = (...values: number[]) => new Uint8Array(values);

  it('keeps the fingerprint on record and the text to embed', () => {
    expect(docs.fingerprint()).toBeUndefined();
    docs.setFingerprint('{"provider":"p","model":"m","dims":2}');
    expect(docs.fingerprint()).toBe('{"provider":"p","model":"m","dims":2}');
    expect(docs.embeddingTexts([1, 2])).toEqual([
      { id: 1, body: 'Title\nfirst' },
      { id: 2, body: 'second' },
    ]);
  });

  it('counts, lists and reads vectors per model, moving the generation on every change', () => {
    const start = docs.vectorGeneration();
    docs.writeVectors('m1', [
      { id: 1, code: bytes(1), vector: bytes(1, 2, 3, 4) },
      { id: 2, code: bytes(2), vector: bytes(5, 6, 7, 8) },
    ]);
    docs.writeVectors('m2', [{ id: 3, code: bytes(3), vector: bytes(9, 9, 9, 9) }]);
    expect(docs.vectorGeneration()).toBe(start + 3);
    expect(docs.vectorCounts('m1')).toEqual({ documents: 3, current: 2, stale: 1, missing: 1 });
    expect(docs.missingVectorIds('m1')).toEqual([3]);
    expect(docs.missingVectorIds('m2', { among: [1, 3, 99], limit: 5 })).toEqual([1]);
    expect(docs.signCodes('m1').map(([id, code, collection, project, ts]) => [id, [...code], collection, project, ts])).toEqual([
      [1, [1], 'memories', 'p1', '2026-01-02T00:00:00.000Z'],
      [2, [2], 'notes', '', null],
    ]);
    expect(docs.vectors([2, 3], 'm1').map(([id, v]) => [id, [...v]])).toEqual([[2, [5, 6, 7, 8]]]);
    expect(docs.deleteStaleVectors('m1')).toBe(1);
    expect(docs.vectorCounts('m1')).toEqual({ documents: 3, current: 2, stale: 0, missing: 1 });
    expect(docs.documentIds()).toEqual([1, 2, 3]);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { testStore } from '../../test-support/store.js';
import { needsTrigramIndex } from './records.js';

describe('document records', () => {
  const store = testStore();
  afterAll(() => store.cleanup());
  const at = '2026-01-01T00:00:00.000Z';

  it('indexes trigrams for exactly the texts the trigram list can match', () => {
    expect(needsTrigramIndex('plain prose. With sentences, commas and 2023.')).toBe(false);
    expect(needsTrigramIndex('call getUserById')).toBe(true);
    expect(needsTrigramIndex('user_id')).toBe(true);
    expect(needsTrigramIndex('see app.ts')).toBe(true);
    expect(needsTrigramIndex('sha256 digest')).toBe(true);
    expect(needsTrigramIndex('東京')).toBe(true);
  });

  it('numbers a thread in arrival order, keeps a seq on update, and counts per collection', () => {
    const counts = store.transaction(() =>
      store.documents.upsert(
        [
          { id: 'a', text: 'first turn', collection: 'memories', thread: 's1' },
          { id: 'b', text: 'second turn', collection: 'memories', thread: 's1' },
          { id: 'c', text: 'third turn', collection: 'memories', thread: 's1' },
          { id: 'f', text: 'a fact', collection: 'notes' },
        ],
        at,
      ),
    );
    expect(counts).toEqual({ inserted: 4, updated: 0, unchanged: 0 });
    expect(store.documents.upsert([{ id: 'b', text: 'second turn, edited', collection: 'memories', thread: 's1' }], at)).toEqual({
      inserted: 0,
      updated: 1,
      unchanged: 0,
    });
    const b = store.documents.get('memories', 'b');
    expect(b).toMatchObject({ seq: 2, text: 'second turn, edited' });
    const place = { collection: 'memories', project: '', thread: 's1', seq: 3 };
    expect(store.documents.threadNeighbours(place, 1).map((r) => r.ext_id)).toEqual(['b', 'c']);
    expect(store.documents.count()).toBe(4);
    expect(store.documents.count('notes')).toBe(1);
    expect(store.documents.countByCollection()).toEqual([
      { collection: 'memories', documents: 3 },
      { collection: 'notes', documents: 1 },
    ]);
    expect([...store.documents.byRowIds([b?.id as number, 999]).keys()]).toEqual([b?.id]);
  });

  it('finds speakers whatever their case, and rewrites metadata', () => {
    expect(store.documents.hasSpeakers()).toBe(false);
    store.documents.upsert([{ id: 's', text: 'hello', collection: 'memories', speaker: 'Mary Ann' }], at);
    expect(store.documents.hasSpeakers()).toBe(true);
    expect(store.documents.speaker('mary ann')).toBe('Mary Ann');
    expect(store.documents.speaker('Bob')).toBeUndefined();
    const s = store.documents.get('memories', 's');
    store.documents.setMetadata(s?.id as number, { superseded_by: 'x' });
    expect(store.documents.get('memories', 's')?.metadata).toBe('{"superseded_by":"x"}');
    expect(store.documents.supersededBy('memories', ['x', 'y']).map((r) => r.ext_id)).toEqual(['s']);
    expect(store.documents.supersededBy('notes', ['x'])).toEqual([]);
    expect(store.documents.delete('memories', ['s', 'missing'])).toBe(1);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { testStore } from '../../test-support/store.js';
import { orQuery } from './full-text.js';

describe('full-text lists', () => {
  const store = testStore();
  afterAll(() => store.cleanup());
  store.documents.upsert(
    [
      { id: 'a', text: 'deploy the service with a rollback plan', collection: 'memories', project: 'p1' },
      { id: 'b', text: 'deploy notes', collection: 'notes', project: 'p2' },
      { id: 'c', text: '昨日は東京タワーに行った, see getUserById', collection: 'memories' },
    ],
    '2026-01-01T00:00:00.000Z',
  );
  const everything = { filter: {}, limit: 10 };

  it('quotes terms so FTS5 operators in user text are inert', () => {
    expect(orQuery(['a"b', 'NOT', 'c*'])).toBe('"a""b" OR "NOT" OR "c*"');
    expect(store.documents.matchWords(['NOT', 'AND'], everything)).toEqual({ ids: [], scores: [] });
    expect(store.documents.matchWords([], everything)).toEqual({ ids: [], scores: [] });
  });

  it('runs the index syntax when it parses, and says so when it does not', () => {
    expect(store.documents.matchSyntax('deploy AND rollback', everything)?.ids).toEqual([1]);
    expect(store.documents.matchSyntax('deploy AND (', everything)).toBeUndefined();
  });

  it('ranks by BM25 within the filter, and finds substrings of every length', () => {
    const both = store.documents.matchWords(['deploy'], everything);
    expect(both.ids.sort()).toEqual([1, 2]);
    expect(both.scores.every((s) => s > 0)).toBe(true);
    expect(store.documents.matchWords(['deploy'], { filter: { project: 'p2' }, limit: 10 }).ids).toEqual([2]);
    expect(store.documents.matchWords(['deploy'], { filter: { collections: ['memories'] }, limit: 10 }).ids).toEqual([1]);
    expect(store.documents.matchSubstrings(['UserById'], everything).ids).toEqual([3]);
    expect(store.documents.containing(['東京'], everything)).toEqual([3]);
    expect(store.documents.containing(['東京'], { filter: { project: 'p1' }, limit: 10 })).toEqual([]);
  });

  it('counts documents per term up to a cap', () => {
    expect(store.documents.termFrequencies(['deploy', 'rollback', 'absent'], 1)).toEqual([2, 1, 0]);
    expect(store.documents.countBound()).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import { testStore } from '../test-support/store.js';
import { addDocuments } from './memory.js';
import { search } from './search.js';
import { focusOnSpeakers, namedSpeakers, speakerFactor, withoutSpeakers } from './speakers.js';

describe('speaker focus rules', () => {
  it('scales documents of speakers the query did not name, and only those', () => {
    const scores = new Map([
      [1, 1.0],
      [2, 0.8],
      [3, 0.6],
      [4, 0.4],
    ]);
    const speaker: Record<number, string | null> = { 1: 'Bob', 2: 'Alice', 3: null, 4: 'ALICE' };
    const out = focusOnSpeakers(scores, (id) => speaker[id], new Set(['alice']), 0.5);
    expect([...out.entries()]).toEqual([
      [1, 0.5],
      [2, 0.8],
      [3, 0.6],
      [4, 0.4],
    ]);
    expect(focusOnSpeakers(scores, (id) => speaker[id], new Set(), 0.5)).toEqual(scores);
  });

  it('drops the named speakers from the lexical terms unless nothing else remains', () => {
    expect(withoutSpeakers(['alice', 'relax', 'weekend'], new Set(['alice']))).toEqual(['relax', 'weekend']);
    expect(withoutSpeakers(['mary', 'ann', 'garden'], new Set(['mary ann']))).toEqual(['garden']);
    expect(withoutSpeakers(['alice'], new Set(['alice']))).toEqual(['alice']);
    expect(withoutSpeakers(['alice', 'relax'], new Set())).toEqual(['alice', 'relax']);
  });
});

describe('speaker focus on a real store', () => {
  it('finds the speakers a query names, whatever their case, and nothing on a store without speakers', () => {
    const store = testStore('2026-03-01T00:00:00.000Z');
    try {
      expect(namedSpeakers(store.documents, 'what does Alice like?')).toEqual(new Set());
      addDocuments(store, [
        { id: '1', text: 'I love pottery', collection: 'memories', speaker: 'Alice' },
        { id: '2', text: 'I love hiking', collection: 'memories', speaker: 'Mary Ann' },
      ]);
      expect(namedSpeakers(store.documents, 'what does alice like?')).toEqual(new Set(['alice']));
      expect(namedSpeakers(store.documents, "Is Mary Ann's hobby pottery?")).toEqual(new Set(['mary ann']));
      expect(namedSpeakers(store.documents, 'what does Bob like?')).toEqual(new Set());
      // The first person is the store's owner: a "user" speaker, or the names configured for them.
      expect(namedSpeakers(store.documents, 'what did I say about pottery?')).toEqual(new Set());
      addDocuments(store, [{ id: '3', text: 'I started pottery', collection: 'memories', speaker: 'user' }]);
      expect(namedSpeakers(store.documents, 'what did I say about pottery?')).toEqual(new Set(['user']));
      expect(namedSpeakers(store.documents, "what's my favourite hobby?")).toEqual(new Set(['user']));
      expect(namedSpeakers(store.documents, 'pottery, i.e. ceramics')).toEqual(new Set());
      expect(namedSpeakers(store.documents, 'what did I say about pottery?', ['Alice'])).toEqual(new Set(['alice']));
    } finally {
      store.cleanup();
    }
  });

  it('ranks what the named speaker said above what others said to them, and explains the factor', async () => {
    const store = testStore('2026-03-01T00:00:00.000Z');
    try {
      addDocuments(store, [
        {
          id: 'b1',
          text: 'Alice, your pottery class sounds like a lovely way to relax!',
          collection: 'memories',
          speaker: 'Bob',
          thread: 's1',
        },
        { id: 'a1', text: 'Pottery on Sundays is how I relax.', collection: 'memories', speaker: 'Alice', thread: 's1' },
        { id: 'n1', text: 'a note on pottery glazes', collection: 'memories' },
      ]);
      const res = await search(store, null, { query: 'How does Alice relax? pottery' });
      expect(res.results[0]?.id).toBe('a1');
      const bob = res.results.find((r) => r.id === 'b1');
      expect(bob?.speaker).toBe('Bob');
      expect(bob?.explain.speaker).toBeCloseTo(0.5, 10);
      expect(res.results.find((r) => r.id === 'a1')?.explain.speaker).toBe(1);
      expect(res.results.find((r) => r.id === 'n1')?.explain.speaker).toBe(1);
      // Plain BM25 keeps its own order: the focus is a stage of the hybrid pipeline.
      const bm25 = await search(store, null, { query: 'How does Alice relax? pottery', mode: 'bm25' });
      expect(bm25.results[0]?.id).toBe('b1');
    } finally {
      store.cleanup();
    }
  });
});

describe('speaker factor', () => {
  it('is the factor only for a known speaker the query did not name, when it names one', () => {
    const named = new Set(['alice']);
    expect(speakerFactor('Bob', named, 0.5)).toBe(0.5);
    expect(speakerFactor('ALICE', named, 0.5)).toBe(1);
    expect(speakerFactor(null, named, 0.5)).toBe(1);
    expect(speakerFactor(undefined, named, 0.5)).toBe(1);
    expect(speakerFactor('Bob', new Set(), 0.5)).toBe(1);
  });
});

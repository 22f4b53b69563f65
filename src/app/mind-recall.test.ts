import { scratchDir } from '../test-support/cli.js';

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type EmbeddingFingerprint, fingerprintKey } from '../embed/provider.js';
import type { Memory } from '../mind/schemas.js';
import { readFingerprint } from '../search/vectors.js';
import { openStore } from '../store/store.js';
import { MIND_COLLECTION, openMindIndex, syncIndex } from './mind-recall.js';

const clock = { now: () => new Date('2026-02-14T10:00:00Z') };
const FILLER = ['lunch was soup', 'the train was late', 'read about tax forms', 'fixed a flaky test', 'it rained all day'];
const mem = (i: number, description: string, author: Memory['author'] = 'self'): Memory => ({
  timestamp: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
  author,
  weight: 0.5,
  situation: 'day',
  description,
});
const LOG: Memory[] = [
  mem(0, 'I planted roses and tulips in the garden'),
  mem(1, 'the garden needs roses pruned', 'kernel'),
  ...Array.from({ length: 200 }, (_, i) => mem(i + 2, `${FILLER[i % FILLER.length]} (${i})`)),
];

describe('mind recall through the search pipeline', () => {
  it('finds an old memory by meaning with the bundled encoder, hides what the loop may not see, and embeds each memory once', async () => {
    const home = scratchDir('mind-recall-');
    const root = join(home, 'mind');
    const notes: string[] = [];
    const index = await openMindIndex(root, home, { HOMUNCULUS_EMBEDDING: 'use-lite' }, clock, (n) => notes.push(n));
    try {
      const visible = LOG.filter((m) => m.author !== 'kernel');
      const got = await index.recaller(visible, 'which flowers did I grow');
      expect(got).toHaveLength(20);
      expect(got.map((m) => m.description)).toContain('I planted roses and tulips in the garden');
      // The 10 most recent come last, in log order.
      expect(got.slice(-10)).toEqual(LOG.slice(-10));
      expect(got.some((m) => m.author === 'kernel')).toBe(false);
      // The first indexing of a long log is said before it starts; the next cycle has nothing to say.
      expect(notes).toEqual([expect.stringMatching(/^indexing 201 memories for recall with use-lite/)]);
      await index.recaller(visible, 'lunch');
      expect(notes).toHaveLength(1);
    } finally {
      await index.close();
    }
    const store = openStore({ home: join(root, 'index') });
    try {
      expect(store.documents.count(MIND_COLLECTION)).toBe(201);
      // Every indexed memory has its vector: the next cycle embeds only what is new.
      const fingerprint = readFingerprint(store.documents);
      expect(fingerprint?.provider).toBe('use-lite');
      expect(store.documents.vectorCounts(fingerprintKey(fingerprint as EmbeddingFingerprint))).toMatchObject({ current: 201, missing: 0 });
      expect(syncIndex(store, LOG)).toBe(1);
      expect(syncIndex(store, LOG)).toBe(0);
    } finally {
      store.close();
    }
  });
});

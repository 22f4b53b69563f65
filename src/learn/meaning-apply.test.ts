import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useLiteProvider } from '../embed/use-lite.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { forgetInstinct } from './corrections.js';
import { groupRequestsByMeaning } from './meaning-apply.js';

const PROJECT = 'aaaaaaaaaaaaaaaa';
let store: TestStore;
beforeEach(() => (store = testStore('2026-03-01T00:00:00.000Z')));
afterEach(() => store.cleanup());

function asked(key: string, session: string, day: number, text: string, month = '02'): void {
  store.learning.addSighting({
    kind: 'pattern',
    key: `pref:cli/request=${key}`,
    project: PROJECT,
    session_id: session,
    ts: `2026-${month}-0${day}T10:00:00.000Z`,
    detail: JSON.stringify({ evidence: [`asked: "${text}"`], miner: 'request' }),
  });
}

describe('requests counted by meaning with the bundled encoder', () => {
  it('counts one ask in other words under one key, makes it an instinct at three sessions, and routes the other wording to it', async () => {
    asked('review-chang', 's1', 1, 'can you review the changes in this branch?');
    asked('check-chang', 's2', 2, 'can you check the changes in the local branch again?');
    asked('review-chang', 's3', 3, 'can you review the changes in the local branch?');
    asked('add-integr', 's4', 4, 'can you add an integration test that checks that the Version is included?');
    const encoder = useLiteProvider();
    const result = await groupRequestsByMeaning(store, (texts) => encoder.embed(texts));
    expect(result).toMatchObject({
      compared: 4,
      merged: [{ into: 'pref:cli/request=review-chang', keys: ['pref:cli/request=check-chang'] }],
      created: ['pref:cli/request=review-chang'],
    });
    const row = store.instincts.get('pref:cli/request=review-chang');
    expect(row?.action).toMatch(/^Offer to review the changes before being asked/);
    expect(row?.action).toContain('can you check the changes in the local branch again?');
    expect(row?.last_seen.slice(0, 10)).toBe('2026-02-03');
    expect(store.instincts.resolveAlias('pref:cli/request=check-chang')).toBe('pref:cli/request=review-chang');
    // The unrelated ask keeps its own count.
    expect(store.learning.countSightings('pattern', 'pref:cli/request=add-integr')).toBe(1);
    // A second run finds nothing left to merge.
    expect((await groupRequestsByMeaning(store, (texts) => encoder.embed(texts))).merged).toEqual([]);
  }, 60_000);

  it('does not make a forgotten request an instinct again from asks made before it was forgotten, only from later ones', async () => {
    const encoder = useLiteProvider();
    const embed = (texts: string[]) => encoder.embed(texts);
    asked('review-chang', 's1', 1, 'can you review the changes in this branch?');
    asked('check-chang', 's2', 2, 'can you check the changes in the local branch again?');
    asked('review-chang', 's3', 3, 'can you review the changes in the local branch?');
    expect((await groupRequestsByMeaning(store, embed)).created).toEqual(['pref:cli/request=review-chang']);
    forgetInstinct(store, 'pref:cli/request=review-chang', 'dashboard');
    // Older sessions come in later (an import), in other words: still from before the forgetting.
    asked('look-chang', 's4', 4, 'can you look over the changes in this branch?');
    asked('review-chang', 's5', 5, 'can you review the changes on this branch?');
    asked('check-chang', 's6', 6, 'can you check the changes in the branch again?');
    expect((await groupRequestsByMeaning(store, embed)).created).toEqual([]);
    expect(store.instincts.get('pref:cli/request=review-chang')).toBeUndefined();
    // Asked again after it was forgotten, in three new sessions: those count, and only those.
    store.setNow('2026-03-09T00:00:00.000Z');
    asked('review-chang', 's7', 7, 'can you review the changes in this branch?', '03');
    asked('check-chang', 's8', 8, 'can you check the changes in the local branch again?', '03');
    expect((await groupRequestsByMeaning(store, embed)).created).toEqual([]);
    asked('review-chang', 's9', 9, 'can you review the changes in the local branch?', '03');
    const relearned = (await groupRequestsByMeaning(store, embed)).created;
    expect(relearned).toHaveLength(1);
    const row = store.instincts.get(store.instincts.resolveAlias(relearned[0] ?? ''));
    expect(row?.evidence).toBe(3);
  }, 60_000);
});

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { observe } from './instincts.js';
import { instinctCounts, instinctStatus } from './stats.js';

let store: TestStore;
beforeEach(() => (store = testStore()));
afterEach(() => store.cleanup());

describe('instinctCounts', () => {
  it('counts what instinctStatus lists, band by band, with decay applied', () => {
    observe(store, { pattern: 'pref:pkg=pnpm', occurrences: 12 });
    observe(store, { pattern: 'pref:lint=eslint', occurrences: 4 });
    observe(store, { pattern: 'pref:editor=vim' });
    const listed = instinctStatus(store);
    const counted = instinctCounts(store);
    for (const band of ['strong', 'moderate', 'tentative', 'faded'] as const)
      expect([band, counted.bands[band]]).toEqual([band, Object.values(listed.bands[band]).flat().length]);
    expect(counted).toMatchObject({ total: 3, convictions: 0, observations: 0, pending_observations: 0 });
    // Months later, unseen instincts have faded: the counts follow the decayed confidence.
    store.advanceDays(365);
    const later = instinctCounts(store);
    expect(later.bands.faded).toBeGreaterThan(counted.bands.faded);
    expect(later.bands).toEqual(
      Object.fromEntries(Object.entries(instinctStatus(store).bands).map(([b, d]) => [b, Object.values(d).flat().length])),
    );
  });
});

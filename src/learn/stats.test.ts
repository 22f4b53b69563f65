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

describe('instinctStatus after gc', () => {
  it('counts the observations gc archived apart from the live ones', () => {
    store.observations.insert({ source: 'claude-code', session_id: 's', tool_use_id: 't', ts: '2025-12-01T10:00:00.000Z' });
    store.observations.markProcessed(
      store.observations.forSession('s').map((o) => o.id),
      '2025-12-01T11:00:00.000Z',
    );
    store.observations.archiveProcessed('2025-12-31T00:00:00.000Z', '2025-12-31T00:00:00.000Z');
    expect(instinctStatus(store)).toMatchObject({ observations: 0, archived_observations: 1 });
  });
});

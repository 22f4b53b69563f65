import { afterEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { observeImported } from './bulk.js';
import { observe } from './instincts.js';
import { mergeInstinct } from './merge.js';
import { currentConfidence } from './records.js';

describe('merging an imported instinct', () => {
  let store: TestStore;
  afterEach(() => store.cleanup());

  it('changes nothing when the same export comes back, metadata and all', () => {
    store = testStore();
    const incoming = { key: 'pref:cli/lint=mise', evidence: 9, metadata: { purpose: 'lint', command: 'mise run lint' } };
    expect(store.transaction(() => mergeInstinct(store, incoming, 'import'))).toBe('created');
    const held = store.instincts.get('pref:cli/lint=mise');
    expect(store.transaction(() => mergeInstinct(store, incoming, 'import'))).toBe('unchanged');
    expect(store.instincts.get('pref:cli/lint=mise')).toEqual(held);
    // Metadata the store lacks is added, and what it holds keeps its value.
    const more = { ...incoming, metadata: { purpose: 'format', tool: 'mise' } };
    expect(store.transaction(() => mergeInstinct(store, more, 'import'))).toBe('raised');
    expect(JSON.parse(store.instincts.get('pref:cli/lint=mise')?.metadata ?? '{}')).toEqual({
      purpose: 'lint',
      command: 'mise run lint',
      tool: 'mise',
    });
  });

  it('changes nothing when a record without dates comes back a day later (an instinct file with no last_seen)', () => {
    store = testStore('2026-01-01T00:00:00.000Z');
    const undated = { key: 'pref:pkg=pnpm', evidence: 3, trigger: 'installing packages', action: 'use pnpm' };
    expect(store.transaction(() => mergeInstinct(store, undated, 'import-files'))).toBe('created');
    const held = store.instincts.get('pref:pkg=pnpm');
    store.advanceDays(1);
    expect(store.transaction(() => mergeInstinct(store, undated, 'import-files'))).toBe('unchanged');
    expect(store.instincts.get('pref:pkg=pnpm')).toEqual(held);
    expect(store.instincts.events(held?.id ?? 0).map((e) => e.kind)).toEqual(['import']);
  });

  it('takes a stated score as of now: an instinct last seen months ago keeps it, rather than decaying a second time', () => {
    store = testStore('2026-01-01T00:00:00.000Z');
    const old = { key: 'pref:pkg=pnpm', evidence: 12, confidence: 0.5, last_seen: '2025-10-01T00:00:00.000Z' };
    expect(store.transaction(() => mergeInstinct(store, old, 'import'))).toBe('created');
    const row = store.instincts.get('pref:pkg=pnpm');
    expect(row && currentConfidence(row, store.clock.now())).toBe(0.5);
    // A higher score for a held one, likewise; and the week's decay then runs from today on.
    expect(store.transaction(() => mergeInstinct(store, { ...old, confidence: 0.7 }, 'import'))).toBe('raised');
    const raised = store.instincts.get('pref:pkg=pnpm');
    expect(raised && currentConfidence(raised, store.clock.now())).toBe(0.7);
    store.advanceDays(7);
    expect(raised && currentConfidence(raised, store.clock.now())).toBeLessThan(0.7);
  });

  it('never rewrites how a held pattern is explained (import_patterns, import_claude_md)', () => {
    store = testStore();
    observe(store, { pattern: 'pref:cli/test=mise', source: 'learn', explain: '`mise run test` is how cli is tested' });
    const origin = { source: 'claude-md', project: '', detail: 'import_claude_md' };
    store.transaction(() => observeImported(store, { key: 'pref:cli/test=mise', evidence: 4, explain: 'Use mise run lint' }, origin));
    expect(store.instincts.get('pref:cli/test=mise')).toMatchObject({ explain: '`mise run test` is how cli is tested', evidence: 4 });
    store.transaction(() => observeImported(store, { key: 'pref:new=x', evidence: 2, explain: 'brought by the file' }, origin));
    expect(store.instincts.get('pref:new=x')?.explain).toBe('brought by the file');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { observeImported } from './bulk.js';
import { observe } from './instincts.js';
import { mergeInstinct } from './merge.js';

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

import { afterEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { rememberGiven, rememberStart, takeInContext } from './in-context.js';

let store: TestStore;
afterEach(() => store?.cleanup());

describe('what a session already holds', () => {
  it('a start block held for the first prompt is given once; the keys stay for every later prompt', () => {
    store = testStore();
    rememberStart(store, 'gemini', 's1', { text: 'START BLOCK', keys: ['pref:a'] }, true);
    expect(takeInContext(store, 'gemini', 's1')).toMatchObject({ keys: new Set(['pref:a']), start: 'START BLOCK' });
    expect(takeInContext(store, 'gemini', 's1')).toMatchObject({ keys: new Set(['pref:a']), start: '' });
    // Another agent's session of the same id holds nothing of it.
    expect(takeInContext(store, 'codex', 's1')).toEqual({ keys: new Set(), start: '' });
  });

  it('a start given at once is not held; what prompts give adds up, and a new start (after a compaction) begins again', () => {
    store = testStore();
    rememberStart(store, 'claude-code', 's1', { text: 'START', keys: ['pref:a'] }, false);
    // Each prompt adds to what the session held when it began.
    rememberGiven(store, 'claude-code', 's1', takeInContext(store, 'claude-code', 's1'), ['fix:b']);
    rememberGiven(store, 'claude-code', 's1', takeInContext(store, 'claude-code', 's1'), ['fix:b', 'fix:c']);
    expect(takeInContext(store, 'claude-code', 's1')).toMatchObject({ keys: new Set(['pref:a', 'fix:b', 'fix:c']), start: '' });
    rememberStart(store, 'claude-code', 's1', { text: 'START', keys: ['pref:d'] }, false);
    expect(takeInContext(store, 'claude-code', 's1').keys).toEqual(new Set(['pref:d']));
    // A prompt in a session with no start on record.
    rememberGiven(store, 'claude-code', 's2', takeInContext(store, 'claude-code', 's2'), ['fix:e']);
    expect(takeInContext(store, 'claude-code', 's2').keys).toEqual(new Set(['fix:e']));
  });

  it('no session id keeps nothing, a damaged record reads as nothing, and only the newest 500 sessions are kept', () => {
    store = testStore();
    rememberStart(store, 'claude-code', '', { text: 'START', keys: ['pref:a'] }, true);
    expect(store.meta.prefixed('in-context:')).toEqual([]);
    store.meta.write('in-context:claude-code:bad', '{not json');
    expect(takeInContext(store, 'claude-code', 'bad')).toEqual({ keys: new Set(), start: '' });
    for (let i = 0; i < 501; i++) {
      store.advanceDays(0.001);
      rememberStart(store, 'claude-code', `n${i}`, { text: '', keys: [] }, false);
    }
    const kept = store.meta.prefixed('in-context:').map((r) => r.key);
    expect(kept).toHaveLength(500);
    // The damaged record (no time) and the oldest went first.
    expect(kept).not.toContain('in-context:claude-code:bad');
    expect(kept).not.toContain('in-context:claude-code:n0');
    expect(kept).toContain('in-context:claude-code:n500');
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';

let store: TestStore | undefined;
afterEach(() => store?.cleanup());

describe('the agent conversations', () => {
  it('keeps messages per persona and session, replaces them, drops them, and finds the latest of a chat', () => {
    store = testStore('2026-11-26T08:00:00.000Z');
    const c = store.conversations;
    c.save('default', 'telegram-7-1', [{ role: 'user', content: 'hi' }], '2026-11-26T08:00:00.000Z');
    c.save('coder', 'telegram-7-2', [{ role: 'user', content: 'code' }], '2026-11-26T09:00:00.000Z');
    c.save('default', 'telegram-70-1', [], '2026-11-26T10:00:00.000Z');
    expect(c.load('default', 'telegram-7-1')).toEqual([{ role: 'user', content: 'hi' }]);
    expect(c.load('coder', 'telegram-7-1')).toBeUndefined();
    c.save('default', 'telegram-7-1', [{ role: 'user', content: 'again' }], '2026-11-26T08:30:00.000Z');
    expect(c.load('default', 'telegram-7-1')).toEqual([{ role: 'user', content: 'again' }]);
    // The prefix is the chat's: telegram-70- is another chat.
    expect(c.latest('telegram-7-')).toEqual({ session: 'telegram-7-2', updated_at: '2026-11-26T09:00:00.000Z' });
    c.drop('coder', 'telegram-7-2');
    expect(c.latest('telegram-7-')?.session).toBe('telegram-7-1');
    expect(c.latest('telegram-8-')).toBeUndefined();
    expect(c.prune('2026-11-26T09:00:00.000Z')).toBe(1);
    expect(c.load('default', 'telegram-7-1')).toBeUndefined();
    expect(c.load('default', 'telegram-70-1')).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { ChatSessions, TELEGRAM_MAX_TEXT, isAllowedUser, loadTelegramSettings, splitMessage } from './telegram.js';

describe('splitMessage', () => {
  it('keeps a short answer whole', () => {
    expect(splitMessage('Hello there.')).toEqual(['Hello there.']);
  });

  it('splits a long answer on paragraph boundaries, each part within 4,096 characters', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} ${'word '.repeat(160).trim()}.`);
    const parts = splitMessage(paragraphs.join('\n\n'));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(TELEGRAM_MAX_TEXT);
    // Every part is whole paragraphs: nothing was cut inside one.
    expect(parts.join('\n\n')).toBe(paragraphs.join('\n\n'));
    expect(parts.every((p) => p.startsWith('Paragraph'))).toBe(true);
  });

  it('cuts a paragraph longer than the limit between words, not inside one', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const parts = splitMessage(words.join(' '), 1000);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(1000);
    expect(parts.join(' ').split(' ')).toEqual(words);
  });

  it('cuts hard only when a single word is longer than the limit', () => {
    expect(splitMessage('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });
});

describe('isAllowedUser', () => {
  it('answers listed users only, and nobody when the list is empty', () => {
    expect(isAllowedUser([42], 42)).toBe(true);
    expect(isAllowedUser([42], 43)).toBe(false);
    expect(isAllowedUser([], 42)).toBe(false);
    expect(isAllowedUser([42], undefined)).toBe(false);
  });
});

describe('loadTelegramSettings', () => {
  const env = { TG_TOKEN: '123:abc' };
  it('is absent without the section and reads the token from the named variable', () => {
    expect(loadTelegramSettings({}, env)).toBeUndefined();
    expect(loadTelegramSettings({ agent: { telegram: { tokenEnv: 'TG_TOKEN', allowed_user_ids: [42] } } }, env)).toEqual({
      token: '123:abc',
      tokenEnv: 'TG_TOKEN',
      allowedUserIds: [42],
      idleMinutes: 30,
    });
  });

  it('refuses a missing token, a token in the file and a bad user id, saying the fix', () => {
    expect(() => loadTelegramSettings({ agent: { telegram: { allowed_user_ids: [] } } }, {})).toThrow(/TELEGRAM_BOT_TOKEN is not set/);
    expect(() => loadTelegramSettings({ agent: { telegram: { token: '123:abc', allowed_user_ids: [] } } }, env)).toThrow(
      /agent\.telegram.*token/,
    );
    expect(() => loadTelegramSettings({ agent: { telegram: { allowed_user_ids: ['me'] } } }, env)).toThrow(/allowed_user_ids/);
    expect(() => loadTelegramSettings({ agent: { telegram: { tokenEnv: '123:abc', allowed_user_ids: [1] } } }, env)).toThrow(
      /environment variable name/,
    );
  });
});

describe('ChatSessions', () => {
  it('keeps a chat in one session and starts a new one after the idle time', () => {
    const s = new ChatSessions(60_000);
    expect(s.touch(7, 0)).toEqual({ session: 'telegram-7-1', fresh: true });
    expect(s.touch(7, 59_000)).toEqual({ session: 'telegram-7-1', fresh: false });
    expect(s.touch(8, 59_000).session).toBe('telegram-8-1');
    expect(s.touch(7, 59_000 + 60_001)).toEqual({ session: 'telegram-7-2', fresh: true, ended: 'telegram-7-1' });
    expect(s.current(7)).toBe('telegram-7-2');
  });

  it('after a restart, goes on with the session a chat had when it is not idle, else ends it and starts the next', () => {
    const kept = { 7: { session: 'telegram-7-3', last: 100_000 }, 8: { session: 'telegram-8-2', last: 0 } } as Record<
      number,
      { session: string; last: number }
    >;
    const s = new ChatSessions(60_000, (chatId) => kept[chatId]);
    expect(s.touch(7, 130_000)).toEqual({ session: 'telegram-7-3', fresh: false });
    expect(s.touch(8, 130_000)).toEqual({ session: 'telegram-8-3', fresh: true, ended: 'telegram-8-2' });
    expect(s.touch(9, 130_000)).toEqual({ session: 'telegram-9-1', fresh: true });
  });

  it('adds up the usage of the current session and starts again with a new one', () => {
    const s = new ChatSessions(60_000);
    s.touch(7, 0);
    s.addUsage(7, { inputTokens: 10, outputTokens: 2, costUsd: 0.5 });
    s.addUsage(7, { inputTokens: 5, outputTokens: 1, costUsd: 0.25 });
    expect(s.usage(7)).toEqual({ inputTokens: 15, outputTokens: 3, costUsd: 0.75 });
    s.touch(7, 120_001);
    expect(s.usage(7)).toEqual({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
  });
});

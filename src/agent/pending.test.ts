import { describe, expect, it } from 'vitest';
import type { AgentRunner } from './runner.js';
import { PendingBook } from './pending.js';

function recorder() {
  const answers: string[] = [];
  const runner = {
    turn: () => Promise.reject(new Error('unused')),
    confirm: (id: string, answer: string) => {
      answers.push(`${id}=${answer}`);
      return Promise.reject(new Error('nothing held'));
    },
  } as unknown as AgentRunner;
  return { runner, answers };
}

const pending = (id: string, expiresAt: number) => ({ id, tool: 'shell_exec', input: {}, expiresAt: new Date(expiresAt).toISOString() });

describe('PendingBook', () => {
  it('lets each id be answered once before it expires, and refuses ids it never gave', () => {
    const { runner, answers } = recorder();
    let now = 1_000;
    const book = new PendingBook(runner, () => now, 60_000);
    book.hold(pending('a', 5_000));
    book.hold(pending('b', 2_000));
    expect(book.claim('zzz')).toEqual({ ok: false, why: 'unknown' });
    expect(book.claim('a')).toEqual({ ok: true });
    expect(book.claim('a')).toEqual({ ok: false, why: 'unknown' });
    now = 2_000;
    expect(book.claim('b')).toEqual({ ok: false, why: 'expired' });
    expect(answers).toEqual(['b=expired']);
    book.close();
  });

  it('declines for whoever never came back, on the sweep and on close, without asking the model (fail closed)', () => {
    const { runner, answers } = recorder();
    let now = 0;
    const book = new PendingBook(runner, () => now, 60_000);
    book.hold(pending('late', 100));
    book.hold(pending('open', 10_000));
    book.sweep();
    expect(answers).toEqual([]);
    now = 100;
    book.sweep();
    expect(answers).toEqual(['late=expired']);
    expect(book.size).toBe(1);
    // A late answer to a swept id hears that it expired (410), not that it was never given; an hour on, it is forgotten.
    expect(book.claim('late')).toEqual({ ok: false, why: 'expired' });
    now = 100 + 3_600_001;
    book.sweep();
    expect(book.claim('late')).toEqual({ ok: false, why: 'unknown' });
    book.close();
    expect(answers).toEqual(['late=expired', 'open=expired']);
    expect(book.size).toBe(0);
  });
});

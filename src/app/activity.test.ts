import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observe } from '../learn/instincts.js';
import { seedSessions } from '../test-support/sessions.js';
import { type TestStore, testStore } from '../test-support/store.js';
import { dayRange, rangeEnd, signals, toolTimeline } from './activity.js';
import { feedback } from './instincts.js';
import { invoke } from './operation.js';

let store: TestStore;
beforeEach(() => {
  store = testStore('2026-02-27T12:00:00.000Z');
  seedSessions(store, store.paths.home);
  observe(store, { pattern: 'pref:webapp/pkg=pnpm', trigger: 'when installing', action: 'Use pnpm.', occurrences: 3 });
  store.learning.addSignal({
    session_id: 's1',
    ts: '2026-02-27T09:05:00.000Z',
    type: 'correction',
    signal: 'no, use pnpm',
    raw: '',
    project: '',
  });
  store.setNow('2026-02-28T12:00:00.000Z');
  invoke(feedback, { store, env: {} }, { pattern: 'pref:webapp/pkg=pnpm', verdict: 'strong' });
  store.setNow('2026-03-01T08:00:00.000Z');
});
afterEach(() => store.cleanup());

describe('sessions.signals', () => {
  it('counts per day what was observed, started, corrected, given feedback and learned, with every day of the range', () => {
    const { days } = invoke(signals, { store, env: {} }, { days: 3 });
    expect(days).toEqual([
      { day: '2026-02-27', observations: 8, sessions: 1, corrections: 1, feedback: 0, instincts: 1 },
      { day: '2026-02-28', observations: 2, sessions: 1, corrections: 0, feedback: 1, instincts: 0 },
      { day: '2026-03-01', observations: 0, sessions: 0, corrections: 0, feedback: 0, instincts: 0 },
    ]);
    expect(() => invoke(signals, { store, env: {} }, { days: 0 })).toThrow(/days must be a whole number from 1 to 366/);
  });

  it('ends on today when feedback was given today on history months old', () => {
    // Months later: the range would end on the last observation, and today's feedback would not show.
    store.setNow('2026-11-27T10:00:00.000Z');
    expect(invoke(signals, { store, env: {} }, { days: 3 }).days.at(-1)?.day).toBe('2026-02-28');
    invoke(feedback, { store, env: {} }, { pattern: 'pref:webapp/pkg=pnpm', verdict: 'wrong' });
    expect(invoke(signals, { store, env: {} }, { days: 3 }).days.at(-1)).toMatchObject({ day: '2026-11-27', feedback: 1 });
  });

  it('names the days of a range ending today, oldest first', () => {
    expect(dayRange(new Date('2026-03-01T23:59:00Z'), 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
  });
});

describe('tools.timeline', () => {
  it('counts tool calls per day and per session with their failures, and lists the failures', () => {
    const res = invoke(toolTimeline, { store, env: {} }, { days: 3 });
    expect(res.tools).toEqual(['Bash', 'Edit', 'Read', 'Write']);
    expect(res.days.map((d) => [d.key, d.calls, d.failed])).toEqual([
      ['2026-02-27', 4, 1],
      ['2026-02-28', 1, 0],
      ['2026-03-01', 0, 0],
    ]);
    expect(res.days[0]?.tools.Bash).toEqual({ calls: 2, failed: 1 });
    expect(res.sessions.map((s) => [s.key, s.calls, s.failed])).toEqual([
      ['s1', 4, 1],
      ['s2', 1, 0],
    ]);
    expect(res.failures).toEqual([
      { ts: '2026-02-27T09:04:00.000Z', session_id: 's1', tool: 'Bash', outcome: 'error', error: '1 test failed: login renders' },
    ]);
    // The range starts at midnight of its first day: the day before is left out.
    expect(invoke(toolTimeline, { store, env: {} }, { days: 1 }).sessions).toEqual([]);
  });

  it('ends a range today, or on the day of the latest observation when the range would be empty', () => {
    const now = new Date('2026-11-26T08:00:00.000Z');
    expect(rangeEnd(now, null, 30)).toEqual(now);
    expect(rangeEnd(now, '2026-02-15T18:03:00.000Z', 30)).toEqual(new Date('2026-02-15T18:03:00.000Z'));
    // Something in the range: it ends today.
    expect(rangeEnd(now, '2026-11-20T07:59:00.000Z', 30)).toEqual(now);
    expect(rangeEnd(now, '2026-11-20T07:59:00.000Z', 3)).toEqual(new Date('2026-11-20T07:59:00.000Z'));
    // A clock behind the store (or a bad value) keeps today.
    expect(rangeEnd(now, '2027-01-01T00:00:00.000Z', 30)).toEqual(now);
    expect(rangeEnd(now, 'not a date', 30)).toEqual(now);
  });
});

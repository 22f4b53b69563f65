import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import type { NewJob } from './schedule.js';

let store: TestStore;
beforeEach(() => (store = testStore()));
afterEach(() => store.cleanup());

const job: NewJob = {
  name: 'news',
  cron: '0 9 * * *',
  time_zone: 'Europe/Paris',
  action: 'message',
  message: 'the news',
  missed: 'skip',
  enabled: true,
  created_at: '2026-01-01T00:00:00.000Z',
  next_run: '2026-01-01T08:00:00.000Z',
};

describe('schedule repository (migration 13)', () => {
  it('keeps jobs by unique name, records runs without losing the last one on a skip, and removes them', () => {
    const added = store.schedule.addJob(job);
    expect(store.schedule.job('news')).toEqual({ ...added, last_run: null });
    expect(() => store.schedule.addJob(job)).toThrow(/UNIQUE/);
    expect(() => store.schedule.addJob({ ...job, name: 'bad', missed: 'later' as NewJob['missed'] })).toThrow(/CHECK/);
    store.schedule.setRun(added.id, '2026-01-01T08:00:00.000Z', '2026-01-02T08:00:00.000Z');
    store.schedule.setRun(added.id, null, '2026-01-03T08:00:00.000Z');
    expect(store.schedule.job('news')).toMatchObject({ last_run: '2026-01-01T08:00:00.000Z', next_run: '2026-01-03T08:00:00.000Z' });
    expect(store.schedule.removeJob('news')).toBe(true);
    expect(store.schedule.removeJob('news')).toBe(false);
    expect(store.schedule.jobs()).toEqual([]);
  });

  it('holds notifications until sent, counts the sent ones in a window and prunes old ones', () => {
    const id = store.schedule.hold({ source: 's', text: 'a', created_at: '2026-01-01T00:00:00.000Z' });
    store.schedule.markSent({ source: 's', text: 'b', created_at: '2026-01-01T00:00:00.000Z' }, '2026-01-01T00:10:00.000Z');
    expect(store.schedule.held().map((h) => h.text)).toEqual(['a']);
    store.schedule.markSent({ id, source: 's', text: 'a', created_at: '2026-01-01T00:00:00.000Z' }, '2026-01-01T01:00:00.000Z');
    expect(store.schedule.held()).toEqual([]);
    expect(store.schedule.sentSince('2026-01-01T00:00:00.000Z')).toBe(2);
    expect(store.schedule.sentSince('2026-01-01T00:30:00.000Z')).toBe(1);
    store.schedule.pruneSent('2026-01-01T00:30:00.000Z');
    expect(store.schedule.sentSince('2000-01-01T00:00:00.000Z')).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import type { Goal, Memory } from './schemas.js';
import { DEFAULT_TRIGGERS, MARK, reflectionReasons } from './triggers.js';

const now = new Date('2026-03-01T00:00:00Z');
const mem = (day: string, author: Memory['author'], situation: string, description = '', weight = 0.5): Memory => ({
  timestamp: `${day}T12:00:00Z`,
  author,
  weight,
  situation,
  description,
});
const reflected = (day: string) => mem(day, 'kernel', MARK.reflection, 'reflecting because: requested');
const goal = (name: string, status: Goal['status'] = 'working'): Goal => ({ name, weight: 0.5, status });
const kinds = (memories: Memory[], goals: Goal[] = [], o = DEFAULT_TRIGGERS) =>
  reflectionReasons(memories, goals, now, o).map((r) => r.kind);

describe('reflection triggers', () => {
  it('a prediction delta over the threshold asks for reflection; a small one does not', () => {
    expect(kinds([mem('2026-02-28', 'self', MARK.delta, 'missed', 0.8)])).toEqual(['prediction-delta']);
    expect(kinds([mem('2026-02-28', 'self', MARK.delta, 'close', 0.2)])).toEqual([]);
  });

  it('value conflicts and completed goals recorded by the kernel ask for it', () => {
    const log = [mem('2026-02-28', 'kernel', MARK.conflict, 'a vs b'), mem('2026-02-28', 'kernel', MARK.completed, '"x" is done')];
    expect(kinds(log)).toEqual(['value-conflict', 'goal-completed']);
  });

  it('a conflict a reflection already weighed does not call for another; a new one does', () => {
    const weighed = mem('2026-02-21', 'kernel', MARK.reflection, 'reflected on:\n- value-conflict: a vs b');
    const log = [mem('2026-02-20', 'kernel', MARK.conflict, 'a vs b'), weighed, mem('2026-02-22', 'kernel', MARK.conflict, 'a vs b')];
    expect(kinds(log)).toEqual([]);
    expect(kinds([...log, mem('2026-02-23', 'kernel', MARK.conflict, 'c vs d')])).toEqual(['value-conflict']);
  });

  it('only a kernel record counts: a self memory naming the same situation is not a conflict', () => {
    expect(kinds([mem('2026-02-28', 'self', MARK.conflict, 'pretend'), mem('2026-02-28', 'goal', MARK.completed)])).toEqual([]);
  });

  it('a reflection answers every reason before it; newer ones count again', () => {
    const log = [mem('2026-02-20', 'self', MARK.delta, 'missed', 0.9), reflected('2026-02-21')];
    expect(kinds(log)).toEqual([]);
    expect(kinds([...log, mem('2026-02-22', 'kernel', MARK.conflict, 'c')])).toEqual(['value-conflict']);
  });

  it('an open goal no memory mentioned for 14 days is stale, once; done and perpetual goals never are', () => {
    const log = [mem('2026-01-01', 'self', 'start'), mem('2026-02-10', 'self', 'learning', 'worked on Learn Rust today')];
    const goals = [goal('learn rust'), goal('write a poem', 'todo'), goal('finished', 'done'), goal('grow', 'perpetual')];
    const stale = reflectionReasons(log, goals, now, DEFAULT_TRIGGERS);
    expect(stale.map((r) => r.detail)).toEqual(['"learn rust" has not come up for 14 days', '"write a poem" has not come up for 14 days']);
    // Reflecting after they became stale answers it, until they are stale again.
    expect(kinds([...log, reflected('2026-02-27')], goals)).toEqual([]);
  });

  it('a young mind has no stale goals', () => {
    expect(kinds([mem('2026-02-25', 'self', 'born')], [goal('learn rust')])).toEqual([]);
  });

  it('reflects periodically after n action or explore cycles, counted from the log', () => {
    const cycles = (n: number) =>
      Array.from({ length: n }, (_, i) => mem('2026-02-28', 'self', i % 2 ? 'explore prediction' : 'action prediction'));
    expect(kinds(cycles(4))).toEqual([]);
    expect(kinds(cycles(5))).toEqual(['periodic']);
    expect(kinds(cycles(2), [], { ...DEFAULT_TRIGGERS, everyCycles: 2 })).toEqual(['periodic']);
    // A clock that stands still: the cycles after the last reflection count in the log's order.
    expect(kinds([...cycles(5), reflected('2026-02-28'), ...cycles(4)])).toEqual([]);
    expect(kinds([...cycles(5), reflected('2026-02-28'), ...cycles(5)])).toEqual(['periodic']);
  });
});

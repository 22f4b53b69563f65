import { describe, expect, it } from 'vitest';
import type { HookCall } from './hook-calls.js';
import { problemCalls, summariseCalls } from './hook-stats.js';

const call = (event: string, ms: number, outcome: HookCall['outcome'] = 'ok', ts = '2026-03-01T10:00:00.000Z'): HookCall => ({
  ts,
  event,
  agent: 'claude-code',
  ms,
  outcome,
});

describe('hook call summaries', () => {
  it('gives each hook its calls, outcomes, slow calls and latency percentiles, most called first', () => {
    const calls = [
      ...Array.from({ length: 100 }, (_, i) => call('observe', i + 1)),
      call('stop', 30, 'failed'),
      call('stop', 20_000, 'timeout'),
    ];
    const [observe, stop] = summariseCalls(calls, 15_000);
    expect(observe).toEqual({
      event: 'observe',
      calls: 100,
      ok: 100,
      failed: 0,
      timeout: 0,
      slow: 0,
      p50_ms: 50,
      p95_ms: 95,
      p99_ms: 99,
      max_ms: 100,
    });
    expect(stop).toMatchObject({ calls: 2, ok: 0, failed: 1, timeout: 1, slow: 1, p50_ms: 30, max_ms: 20_000 });
    expect(summariseCalls([])).toEqual([]);
  });

  it('lists the calls that failed, timed out or ran over budget, newest first, up to the limit', () => {
    const calls = [
      call('start', 16_000, 'ok', '2026-03-01T10:00:00.000Z'),
      call('prompt', 5, 'ok', '2026-03-01T10:01:00.000Z'),
      call('prompt', 7, 'failed', '2026-03-01T10:02:00.000Z'),
      call('stop', 15_001, 'timeout', '2026-03-01T10:03:00.000Z'),
    ];
    expect(problemCalls(calls, 10, 15_000).map((c) => [c.event, c.outcome, c.slow])).toEqual([
      ['stop', 'timeout', true],
      ['prompt', 'failed', false],
      ['start', 'ok', true],
    ]);
    expect(problemCalls(calls, 1, 15_000).map((c) => c.event)).toEqual(['stop']);
  });
});

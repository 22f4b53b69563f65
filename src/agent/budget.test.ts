import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type TestStore, testStore } from '../test-support/store.js';
import { BudgetTracker, callCost } from './budget.js';
import { DEFAULT_PRICES } from './config.js';

let store: TestStore;
let now: Date;
beforeEach(() => {
  store = testStore();
  now = new Date('2026-11-26T08:00:00.000Z');
});
afterEach(() => store.cleanup());

const tracker = (dailyUsd = 1) => new BudgetTracker(store.agentCalls, { dailyUsd, prices: DEFAULT_PRICES }, { now: () => now });
const remote = { session: 's', provider: 'anthropic', model: 'claude', route: 'remote' as const };

describe('callCost', () => {
  it('prices remote calls at $3 / $15 per million tokens and local ones at nothing', () => {
    expect(callCost({ route: 'remote', inputTokens: 1_000_000, outputTokens: 0 }, DEFAULT_PRICES)).toBe(3);
    expect(callCost({ route: 'remote', inputTokens: 0, outputTokens: 1_000_000 }, DEFAULT_PRICES)).toBe(15);
    expect(callCost({ route: 'remote', inputTokens: 2000, outputTokens: 1000 }, { inputPerMTok: 1, outputPerMTok: 2 })).toBeCloseTo(0.004);
    expect(callCost({ route: 'local', inputTokens: 1_000_000, outputTokens: 1_000_000 }, DEFAULT_PRICES)).toBe(0);
  });
});

describe('BudgetTracker', () => {
  it('sums the day in SQLite, refuses escalation once the limit is spent, and resets at UTC midnight', () => {
    const b = tracker(1);
    expect(b.canEscalate()).toBe(true);
    expect(b.record({ ...remote, inputTokens: 100_000, outputTokens: 20_000 })).toBeCloseTo(0.6);
    expect(b.canEscalate()).toBe(true);
    b.record({ ...remote, inputTokens: 100_000, outputTokens: 20_000 });
    b.record({ ...remote, provider: 'ollama', model: 'llama', route: 'local', inputTokens: 5, outputTokens: 5 });
    expect(b.spentToday()).toBeCloseTo(1.2);
    expect(b.canEscalate()).toBe(false);
    const r = b.report();
    expect(r).toMatchObject({ day: '2026-11-26', resetsAt: '2026-11-27T00:00:00.000Z', dailyUsd: 1, remainingUsd: 0, exhausted: true });
    expect(r.models.map((m) => [m.model, m.calls])).toEqual([
      ['claude', 2],
      ['llama', 1],
    ]);
    now = new Date('2026-11-26T23:59:59.999Z');
    expect(b.canEscalate()).toBe(false);
    now = new Date('2026-11-27T00:00:00.000Z');
    expect(b.canEscalate()).toBe(true);
    expect(b.report().models).toEqual([]);
  });

  it('reports money to the micro-dollar, without the float noise of a sum', () => {
    const b = tracker(1);
    // $0.00489 + $0.01878 sums to 0.023670000000000004 in SQLite.
    b.record({ ...remote, inputTokens: 1000, outputTokens: 126 });
    b.record({ ...remote, inputTokens: 1260, outputTokens: 1000 });
    const r = b.report();
    expect([r.spentUsd, r.remainingUsd, r.models[0]?.cost_usd]).toEqual([0.02367, 0.97633, 0.02367]);
  });
});

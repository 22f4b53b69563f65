/**
 * The agent's budget tracker (seed 001): every model call's tokens and cost in SQLite, the
 * remote model priced per million tokens (local calls cost nothing), and a daily limit in
 * USD that resets at UTC midnight. The router asks `canEscalate` before choosing the remote
 * model.
 */
import { type Clock, DAY_MS } from '../core/clock.js';
import type { AgentCallRepository, AgentCallTotals } from '../store/agent-calls.js';
import type { AgentConfig } from './config.js';

export interface CallUsage {
  session: string;
  provider: string;
  model: string;
  route: 'local' | 'remote';
  inputTokens: number;
  outputTokens: number;
}

type Prices = AgentConfig['budget']['prices'];

/** The cost in USD of a call: remote tokens at `prices`, local ones free. Pure. */
export function callCost(usage: Pick<CallUsage, 'route' | 'inputTokens' | 'outputTokens'>, prices: Prices): number {
  if (usage.route === 'local') return 0;
  return (usage.inputTokens * prices.inputPerMTok + usage.outputTokens * prices.outputPerMTok) / 1_000_000;
}

/** Money as it is shown: to the micro-dollar, so sums of calls read 0.1242, not 0.12419999999999999. Pure. */
export const roundUsd = (usd: number): number => Math.round(usd * 1_000_000) / 1_000_000;

/** The UTC midnight that starts `now`'s day. Pure. */
export const utcDayStart = (now: Date): Date => new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);

export interface BudgetReport {
  day: string;
  resetsAt: string;
  dailyUsd: number;
  spentUsd: number;
  remainingUsd: number;
  exhausted: boolean;
  prices: Prices;
  models: AgentCallTotals[];
}

export class BudgetTracker {
  constructor(
    private readonly calls: AgentCallRepository,
    private readonly budget: AgentConfig['budget'],
    private readonly clock: Clock,
  ) {}

  spentToday(): number {
    return this.calls.costSince(utcDayStart(this.clock.now()).toISOString());
  }

  /** Whether a call to the remote model may start: something of today's limit is left. */
  canEscalate(): boolean {
    return this.spentToday() < this.budget.dailyUsd;
  }

  /** Records a call and returns its cost. */
  record(usage: CallUsage): number {
    const cost = callCost(usage, this.budget.prices);
    this.calls.record({
      ts: this.clock.now().toISOString(),
      session: usage.session,
      provider: usage.provider,
      model: usage.model,
      route: usage.route,
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      cost_usd: cost,
    });
    return cost;
  }

  report(): BudgetReport {
    const start = utcDayStart(this.clock.now());
    const spent = roundUsd(this.spentToday());
    return {
      day: start.toISOString().slice(0, 10),
      resetsAt: new Date(start.getTime() + DAY_MS).toISOString(),
      dailyUsd: this.budget.dailyUsd,
      spentUsd: spent,
      remainingUsd: roundUsd(Math.max(0, this.budget.dailyUsd - spent)),
      exhausted: spent >= this.budget.dailyUsd,
      prices: this.budget.prices,
      models: this.calls.totalsSince(start.toISOString()).map((m) => ({ ...m, cost_usd: roundUsd(m.cost_usd) })),
    };
  }
}

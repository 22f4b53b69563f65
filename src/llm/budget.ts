/**
 * Token budgets that are never exceeded: a call starts only when its worst case (a
 * conservative estimate of the prompt plus the output cap) fits in what is left of the run
 * and of the day; actual usage is recorded in llm_usage, which the day's total sums.
 */
import { DAY_MS } from '../core/clock.js';
import { HomunculusError } from '../core/errors.js';
import type { UsageRepository } from '../store/usage.js';
import type { LlmProvider, StructuredRequest, StructuredResult } from './provider.js';

/** Conservative: real tokenizers average 3-4 bytes per token on code and prose. */
export const BYTES_PER_TOKEN_ESTIMATE = 2;

export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN_ESTIMATE);
}

export class BudgetExceededError extends HomunculusError {
  constructor(message: string) {
    super('llm_budget', message, { hint: 'Raise llm.budget.perRunTokens / perDayTokens in config.json, or wait for tomorrow.' });
  }
}

interface BudgetLimits {
  perRunTokens: number;
  perDayTokens: number;
}

interface UsageRecord {
  provider: string;
  model: string;
  purpose: string;
  inputTokens: number;
  outputTokens: number;
  ok: boolean;
}

export class TokenBudget {
  private runUsed = 0;

  constructor(
    private readonly usage: UsageRepository,
    private readonly limits: BudgetLimits,
    private readonly now: () => Date,
  ) {}

  usedToday(): number {
    const start = new Date(Math.floor(this.now().getTime() / DAY_MS) * DAY_MS).toISOString();
    return this.usage.tokensSince(start);
  }

  get usedThisRun(): number {
    return this.runUsed;
  }

  remaining(): number {
    return Math.max(0, Math.min(this.limits.perRunTokens - this.runUsed, this.limits.perDayTokens - this.usedToday()));
  }

  /** Throws unless `worstCase` tokens fit in both budgets. */
  check(worstCase: number): void {
    const left = this.remaining();
    if (worstCase > left) {
      throw new BudgetExceededError(
        `LLM token budget: this call could use ${worstCase} tokens but only ${left} remain (run ${this.limits.perRunTokens}, day ${this.limits.perDayTokens}).`,
      );
    }
  }

  record(usage: UsageRecord): void {
    const total = usage.inputTokens + usage.outputTokens;
    this.runUsed += total;
    this.usage.record({
      ts: this.now().toISOString(),
      provider: usage.provider,
      model: usage.model,
      purpose: usage.purpose,
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      ok: usage.ok,
    });
  }
}

/**
 * One structured call inside the budget: refused unless its worst case fits, its actual use
 * recorded under `purpose`. A failed call may still have been billed, so it is charged its
 * worst case: the budget stays an upper bound.
 */
export async function generateWithinBudget<T>(
  provider: LlmProvider,
  budget: TokenBudget,
  purpose: string,
  request: StructuredRequest<T>,
): Promise<StructuredResult<T>> {
  const input = estimateTokens(request.system + request.prompt);
  budget.check(input + request.maxOutputTokens);
  const charge = (inputTokens: number, outputTokens: number, ok: boolean): void =>
    budget.record({ provider: provider.name, model: provider.model, purpose, inputTokens, outputTokens, ok });
  try {
    const result = await provider.generate(request);
    charge(result.usage.inputTokens, result.usage.outputTokens, true);
    return result;
  } catch (err) {
    if (!(err instanceof BudgetExceededError)) charge(input, request.maxOutputTokens, false);
    throw err;
  }
}

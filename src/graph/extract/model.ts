/**
 * The configured language model as the graph builder's `complete` function: structured
 * output (the answer's outer shape), inside the same run and day token budget as the
 * learning observer. Item-level validation and repair stay in parseExtraction.
 */
import { z } from 'zod';
import { BudgetExceededError, type TokenBudget, estimateTokens } from '../../llm/budget.js';
import type { LlmProvider } from '../../llm/provider.js';
import type { CompleteFn } from './llm.js';

const answerShape = z.object({
  entities: z.array(z.unknown()),
  facts: z.array(z.unknown()),
  contradictions: z.array(z.unknown()).optional(),
});

const SYSTEM =
  'You extract durable knowledge from coding sessions into a knowledge graph. Answer with the JSON object the user describes and nothing else.';

export function modelComplete(
  provider: LlmProvider,
  budget: TokenBudget,
  config: { maxOutputTokens: number; timeoutMs: number },
): CompleteFn {
  return async (prompt) => {
    const input = estimateTokens(SYSTEM + prompt);
    budget.check(input + config.maxOutputTokens);
    try {
      const result = await provider.generate({
        system: SYSTEM,
        prompt,
        schema: answerShape,
        maxOutputTokens: config.maxOutputTokens,
        timeoutMs: config.timeoutMs,
      });
      budget.record({
        provider: provider.name,
        model: provider.model,
        purpose: 'graph',
        inputTokens: result.usage.inputTokens,
        outputTokens: result.usage.outputTokens,
        ok: true,
      });
      return JSON.stringify(result.object);
    } catch (err) {
      // A failed call may still have been billed: charge its worst case.
      if (!(err instanceof BudgetExceededError)) {
        budget.record({
          provider: provider.name,
          model: provider.model,
          purpose: 'graph',
          inputTokens: input,
          outputTokens: config.maxOutputTokens,
          ok: false,
        });
      }
      throw err;
    }
  };
}

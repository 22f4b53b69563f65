/**
 * The configured language model as the graph builder's `complete` function: structured
 * output (the answer's outer shape), inside the same run and day token budget as the
 * learning observer. Item-level validation and repair stay in parseExtraction.
 */
import { z } from 'zod';
import { type TokenBudget, generateWithinBudget } from '../../llm/budget.js';
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
    const request = { system: SYSTEM, prompt, schema: answerShape, maxOutputTokens: config.maxOutputTokens, timeoutMs: config.timeoutMs };
    const result = await generateWithinBudget(provider, budget, 'graph', request);
    return JSON.stringify(result.object);
  };
}

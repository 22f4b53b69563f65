/**
 * The personal agent's conversation operations: opening the agent (its loop, router and
 * budget over this store) for a surface to talk through, validating what a person sends,
 * and the day's budget report.
 */
import { z } from 'zod';
import { type BudgetReport, BudgetTracker } from '../agent/budget.js';
import { loadAgentConfig } from '../agent/config.js';
import type { AgentRunner, TurnRequest, TurnResult } from '../agent/runner.js';
import { loadConfig } from '../core/config.js';
import { type AgentTeam, openAgentTeam } from './agent-team.js';
import { type AppContext, defineOperation } from './operation.js';
import { oneOf } from './schemas.js';

/** What a surface sends for one turn: validated once, here, for the chat and the gateway alike. */
export const agentTurnInput = z.object({
  session: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/, 'must be 1-128 letters, digits, dots, dashes, colons or underscores, e.g. "chat-1"'),
  message: z.string().trim().min(1, 'is empty: type a message').max(100_000, 'is longer than 100,000 characters'),
});

export const agentConfirmInput = z.object({
  id: z.string().min(1).max(200),
  // 'unattended': no one was there to answer (no terminal); a no that says so.
  answer: oneOf(['yes', 'no', 'unattended']),
});

/** A surface's runner and how it follows a turn (stream, tool calls, cancellation). */
export interface TurnContext {
  runner: AgentRunner;
  hooks?: Pick<TurnRequest, 'signal' | 'onText' | 'onToolCall'>;
}

export const agentTurn = defineOperation({
  name: 'agent.turn',
  summary: 'One message to the personal agent; the answer may hold a tool call waiting for a yes',
  input: agentTurnInput,
  run: (ctx: TurnContext, i): Promise<TurnResult> => ctx.runner.turn({ ...i, ...ctx.hooks }),
});

export const agentConfirm = defineOperation({
  name: 'agent.confirm',
  summary: "A person's yes or no to a held tool call; the turn resumes",
  input: agentConfirmInput,
  run: (ctx: TurnContext, i): Promise<TurnResult> => ctx.runner.confirm(i.id, i.answer, ctx.hooks),
});

/**
 * The agent over this store, from config.json's `agent` section (an invalid section throws with
 * the fix): the manager over one worker thread per persona (agent-team.ts). `loop` is the same
 * runner under part 1's name; `close()` stops the threads.
 */
export function openAgent(ctx: AppContext): AgentTeam & { loop: AgentRunner } {
  const team = openAgentTeam(ctx);
  return { ...team, loop: team.runner };
}

export const agentBudget = defineOperation({
  name: 'agent.budget',
  summary: "Today's spend on the agent's models (UTC day): tokens and cost per model, the daily limit and what is left",
  input: z.object({}),
  run(ctx: AppContext): BudgetReport {
    const config = loadAgentConfig(loadConfig(ctx.store.paths.config));
    return new BudgetTracker(ctx.store.agentCalls, config.budget, ctx.store.clock).report();
  },
});

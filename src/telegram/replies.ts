/** What the bot says for its own commands and for a held tool call: text only, no behaviour. */
import type { BudgetReport } from '../agent/budget.js';
import type { PendingConfirmation } from '../agent/runner.js';
import type { RouteMode } from '../agent/router.js';
import { type SessionUsage, splitMessage } from '../agent/telegram.js';
import { showInvisible, usd } from '../core/text.js';

export const HELP = [
  'Talk to me in plain words. Commands:',
  '/escalate: every message goes to the remote model (within the budget)',
  '/local: every message stays on the local model',
  '/auto: routing by the kind of message again',
  '/status: this session, its routing mode and the models',
  "/budget: today's spend on the models",
  '/agents: the agents you can talk to',
].join('\n');

export interface StatusView {
  session: string;
  mode: RouteMode;
  models: { local: string; remote?: string };
  pending: number;
  usage: SessionUsage;
  startedMs: number;
  nowMs: number;
}

export function statusText(s: StatusView): string {
  return [
    `Session: ${s.session}`,
    `Routing: ${s.mode}${s.mode === 'auto' ? ' (by the kind of message)' : ''}`,
    `Local model: ${s.models.local}`,
    `Remote model: ${s.models.remote ?? 'none configured (agent.remote)'}`,
    `This session: ${s.usage.inputTokens} in / ${s.usage.outputTokens} out tokens, ${usd(s.usage.costUsd)}`,
    `Confirmations waiting: ${s.pending}`,
    `Up for ${Math.round((s.nowMs - s.startedMs) / 60_000)} min`,
  ].join('\n');
}

export function budgetText(r: BudgetReport): string {
  return [
    `Today (${r.day}, UTC): ${usd(r.spentUsd)} of ${usd(r.dailyUsd)} spent, ${usd(r.remainingUsd)} left${r.exhausted ? ' (spent: the local model answers)' : ''}.`,
    `Resets at ${r.resetsAt}.`,
    ...r.models.map(
      (m) => `${m.model} (${m.route}): ${m.calls} calls, ${m.input_tokens} in / ${m.output_tokens} out tokens, ${usd(m.cost_usd)}`,
    ),
  ].join('\n');
}

export const agentsText = (names: readonly string[]): string => `Agents: ${names.join(', ')}. Address one with @name.`;

/** Past this, a call's input goes in messages of its own before the question. */
const INLINE_INPUT_CHARS = 3000;

/**
 * The messages that ask for a yes, the last one under the Yes / No buttons: the call's whole
 * input, however long (a yes to a cut input would approve text nobody saw).
 */
export function confirmMessages(p: PendingConfirmation): string[] {
  const input = showInvisible(JSON.stringify(p.input) ?? '');
  const ask = `Run it? Unanswered by ${p.expiresAt} counts as no.`;
  if (input.length <= INLINE_INPUT_CHARS) return [`The agent wants to run ${p.tool} with ${input}.\n${ask}`];
  return [
    ...splitMessage(`The agent wants to run ${p.tool} with this input, all ${input.length} characters of it:\n${input}`),
    `That is the whole input of ${p.tool}, above.\n${ask}`,
  ];
}

/** What one run of the loop keeps while it goes, and what a held confirmation keeps until answered. Pure helpers. */
import type { ModelMessage } from 'ai';
import type { AgentModel } from './providers.js';
import type { RouteDecision } from './router.js';
import type { PendingConfirmation, ToolCallView, TurnUsage } from './runner.js';

export interface RouteChoice {
  model: AgentModel;
  decision: RouteDecision;
  system: string;
}

export interface Approval {
  approvalId: string;
  toolCallId: string;
  tool: string;
  input: unknown;
}

export interface TurnState {
  route: RouteChoice;
  /** Tool call ids a person said yes to. */
  approved: Set<string>;
  calls: Map<string, ToolCallView>;
  approvals: Approval[];
  usage: TurnUsage;
  steps: number;
  /** Why the last model call stopped: 'tool-calls' at the step cap means it was cut short. */
  lastFinish?: string;
  resumed: boolean;
}

export interface Pending {
  session: string;
  history: ModelMessage[];
  route: RouteChoice;
  toolCallId: string;
  view: PendingConfirmation;
  approved: Set<string>;
  /** Further approvals asked in the same step: one question at a time, so they are declined. */
  others: string[];
  calls: Map<string, ToolCallView>;
}

export function newTurnState(route: RouteChoice, resumed?: Pending): TurnState {
  return {
    route,
    approved: resumed?.approved ?? new Set(),
    calls: new Map(),
    approvals: [],
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
    steps: 0,
    resumed: resumed !== undefined,
  };
}

/** The tool message answering a held approval (and declining any asked beside it). Pure. */
export function confirmationReply(held: Pick<Pending, 'view' | 'others'>, approved: boolean, expired: boolean) {
  const reason = approved
    ? 'approved by the person'
    : expired
      ? 'not confirmed in time, so it did not run'
      : 'declined by the person, so it did not run';
  const parts = [
    { type: 'tool-approval-response' as const, approvalId: held.view.id, approved, reason },
    ...held.others.map((approvalId) => ({
      type: 'tool-approval-response' as const,
      approvalId,
      approved: false,
      reason: 'one confirmation at a time: ask again',
    })),
  ];
  return { reason, parts };
}

const MAX_SHOWN = 2_000;

/** A tool's output as a person is shown it: text, cut. Pure. */
export function outputText(output: unknown): string {
  const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? '');
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}… (${text.length} characters)` : text;
}

/** Token counts from the SDK's usage, absent counts as 0. Pure. */
export const usageOf = (u: { inputTokens?: number | undefined; outputTokens?: number | undefined }) => ({
  inputTokens: u.inputTokens ?? 0,
  outputTokens: u.outputTokens ?? 0,
});

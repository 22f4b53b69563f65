/** What one run of the loop keeps while it goes, and what a held confirmation keeps until answered. Pure helpers. */
import type { JSONValue, ModelMessage } from 'ai';
import type { AgentModel } from './providers.js';
import type { RouteDecision } from './router.js';
import type { PendingConfirmation, ToolCallView, TurnUsage } from './runner.js';
import { isScheduled } from './scheduled.js';

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
  /** The conversation holds what a tool read from outside (a page, a file, a command's output): memory writes need a yes. */
  outside: boolean;
  /** What each tool that ran this turn returned, by call id: kept when the model fails after it. */
  ran: Map<string, unknown>;
  /** The messages of the steps that finished (the SDK's, all steps so far). */
  messages: ModelMessage[];
}

export interface Pending {
  session: string;
  history: ModelMessage[];
  route: RouteChoice;
  toolCallId: string;
  view: PendingConfirmation;
  approved: Set<string>;
  /** Further approvals asked in the same step: one question at a time, so they are declined. */
  others: Approval[];
  calls: Map<string, ToolCallView>;
  outside: boolean;
}

/** Whether any tool result in `history` came from a tool `fromOutside` names (registry.ts's bringsOutsideText). Pure. */
export function readsOutside(history: readonly ModelMessage[], fromOutside: (toolName: string) => boolean): boolean {
  return history.some((m) => m.role === 'tool' && m.content.some((part) => part.type === 'tool-result' && fromOutside(part.toolName)));
}

/** The usage of a turn that called no model. */
export const noUsage = (): TurnUsage => ({ inputTokens: 0, outputTokens: 0, costUsd: 0 });

/** What a turn that calls no model answers (a routing command, a confirmation declined for want of an answer). Pure. */
export const modelFreeResult = (session: string, text: string, route: RouteDecision['route']) => ({
  session,
  text,
  toolCalls: [],
  model: '',
  route,
  usage: noUsage(),
});

export function newTurnState(route: RouteChoice, resumed?: Pending, outside = false): TurnState {
  return {
    outside: resumed?.outside ?? outside,
    route,
    approved: resumed?.approved ?? new Set(),
    calls: new Map(),
    approvals: [],
    usage: noUsage(),
    steps: 0,
    resumed: resumed !== undefined,
    ran: new Map(),
    messages: [],
  };
}

/**
 * The tool message answering a held approval. A yes is the SDK's approval response (it then
 * runs the tool); a no is the tool's result saying so, written here rather than left to the
 * SDK's execution-denied output, which ollama-ai-provider-v2 sends as an empty tool message.
 * Approvals asked beside the held one are declined the same way. Pure.
 */
export function confirmationReply(
  held: Pick<Pending, 'view' | 'toolCallId' | 'others'> & { session?: string },
  approved: boolean,
  expired: boolean,
  unattended = false,
) {
  const reason = approved
    ? 'approved by the person'
    : held.session !== undefined && isScheduled(held.session)
      ? 'a scheduled run, with nobody there to say yes, so it did not run'
      : expired
        ? 'not confirmed in time, so it did not run'
        : unattended
          ? 'not confirmed: no one was there to confirm it, so it did not run'
          : 'declined by the person, so it did not run';
  const declined = (a: { toolCallId: string; tool: string }, why: string) => ({
    type: 'tool-result' as const,
    toolCallId: a.toolCallId,
    toolName: a.tool,
    output: { type: 'text' as const, value: `${a.tool} was ${why}.` },
  });
  const parts = [
    approved
      ? { type: 'tool-approval-response' as const, approvalId: held.view.id, approved: true, reason }
      : declined({ toolCallId: held.toolCallId, tool: held.view.tool }, reason),
    ...held.others.map((a) => declined(a, 'not run: one confirmation at a time, ask again')),
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

/**
 * The last `maxTurns` turns of a conversation. It is cut only where a person's message
 * starts a turn, so a tool call is never separated from its result. Pure.
 */
export function trimHistory(messages: ModelMessage[], maxTurns: number): ModelMessage[] {
  const starts = messages.flatMap((m, i) => (m.role === 'user' ? [i] : []));
  if (starts.length <= maxTurns) return messages;
  return messages.slice(starts[starts.length - maxTurns]);
}

/** A tool's returned value as a tool-result output. Pure. */
const resultOutput = (value: unknown) =>
  typeof value === 'string' ? { type: 'text' as const, value } : { type: 'json' as const, value: (value ?? null) as JSONValue };

/**
 * A conversation that ends with tool calls nobody answered gets a result for each, so the model
 * is told and every call has its result: a conversation read back after a restart (a held
 * confirmation is not kept across one), or a turn whose model call failed. A call that did run
 * (`ran`, by call id) gets what it returned, so the model never takes a side effect for one
 * that did not happen; any other is answered as not run, and `why`. Pure.
 */
export function settleUnanswered(
  messages: ModelMessage[],
  options: { why?: string; ran?: ReadonlyMap<string, unknown> } = {},
): ModelMessage[] {
  const parts = (m: ModelMessage) => (Array.isArray(m.content) ? m.content : []);
  const results = new Set(
    messages.flatMap((m) => (m.role === 'tool' ? parts(m).flatMap((p) => (p.type === 'tool-result' ? [p.toolCallId] : [])) : [])),
  );
  const open = messages.flatMap((m) =>
    m.role === 'assistant' ? parts(m).flatMap((p) => (p.type === 'tool-call' && !results.has(p.toolCallId) ? [p] : [])) : [],
  );
  if (!open.length) return messages;
  const why = options.why ?? 'the agent restarted before it was confirmed';
  const content = open.map((c) => ({
    type: 'tool-result' as const,
    toolCallId: c.toolCallId,
    toolName: c.toolName,
    output: options.ran?.has(c.toolCallId)
      ? resultOutput(options.ran.get(c.toolCallId))
      : { type: 'text' as const, value: `${c.toolName} was not run: ${why}.` },
  }));
  return [...messages, { role: 'tool', content }];
}

/**
 * What to keep when another process (`agent chat` beside `agent serve`) saved the session while
 * this turn ran: its history as stored now, then what this turn added to the history it began
 * from (the messages not in `base`, by identity), cut to the last `maxTurns` turns. Pure.
 */
export function mergeHistories(
  theirs: ModelMessage[],
  base: readonly ModelMessage[],
  ours: readonly ModelMessage[],
  maxTurns: number,
): ModelMessage[] {
  const before = new Set(base);
  return trimHistory([...theirs, ...ours.filter((m) => !before.has(m))], maxTurns);
}

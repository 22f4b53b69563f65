/**
 * The agent loop (seed 001), implementing AgentRunner with the AI SDK: the router picks the
 * model, the prompt builder the system prompt, and the model is called with the registry's
 * tools until it ends its turn or `maxSteps` (25) steps. Every call's tokens go to the
 * budget and the audit log; every message and tool call becomes an observation. A tool the
 * registry marks for confirmation is declared `needsApproval`: the SDK stops before running
 * it, and the turn returns a PendingConfirmation that only `confirm(id, 'yes')` resumes;
 * 'no', or no answer before it expires, sends the model a denial instead.
 */
import { type ModelMessage, type StepResult, type ToolSet, modelMessageSchema, stepCountIs } from 'ai';
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { HomunculusError, UsageError } from '../core/errors.js';
import { redactDeep } from '../core/redact.js';
import type { ProjectInfo } from '../core/project.js';
import type { Store } from '../store/store.js';
import { appendAudit } from './audit.js';
import { type BudgetTracker, roundUsd } from './budget.js';
import type { AgentConfig } from './config.js';
import { modelTools, refuseUnreadable } from './loop-tools.js';
import { type CallSettings, auditFailedCall, callModel } from './model-call.js';
import { type AgentEventBase, observePrompt, observeSessionEnd, summariseSession } from './observe.js';
import { type AgentModel, modelFailure } from './providers.js';
import { type RouteDecision, type RouteMode, SessionModes, SessionNotes, modeCommand, routeMessage } from './router.js';
import {
  type AgentRunner,
  type Answer,
  ConfirmationWaiting,
  type PendingConfirmation,
  type TurnRequest,
  type TurnResult,
  type TurnUsage,
} from './runner.js';
import { type ToolContext, type ToolRegistry, bringsOutsideText } from './tools/registry.js';
import {
  type Pending,
  type TurnState,
  confirmationReply,
  mergeHistories,
  modelFreeResult,
  newTurnState,
  readsOutside,
  settleUnanswered,
  trimHistory,
  usageOf,
} from './turn-state.js';

export interface LoopDeps {
  store: Store;
  registry: ToolRegistry;
  /** Everything a tool needs but the session and the confirmation (the loop supplies those). */
  toolContext: Omit<ToolContext, 'session' | 'confirm'>;
  config: Pick<AgentConfig, 'maxSteps' | 'confirmTimeoutSeconds' | 'historyTurns'>;
  /** `remoteProblem`: why the configured remote model is not there (its key is missing). */
  models: { local: AgentModel; remote?: AgentModel; remoteProblem?: string };
  budget: BudgetTracker;
  /** The system prompt for a message of a session (prompt.ts's buildSystemPrompt). */
  systemPrompt: (message: string, session: string) => Promise<string>;
  clock: Clock;
  project: ProjectInfo;
  /** false: one whole answer per call (generateText) instead of a stream. */
  stream?: boolean;
  /** The persona it speaks as: conversations are kept per persona and session (default "default"). */
  agent?: string;
}

const NO_REMOTE_FIX =
  'Fix: add a remote model to config.json, e.g. {"agent": {"remote": {"provider": "anthropic", "model": "claude-sonnet-4-5", "apiKeyEnv": "ANTHROPIC_API_KEY"}}}, and export that key (docs/agent.md).';

/** Messages read back from the store; what is no longer a valid conversation (an SDK upgrade) starts afresh. */
function storedHistory(raw: unknown[] | undefined): ModelMessage[] {
  if (!raw) return [];
  const parsed = z.array(modelMessageSchema).safeParse(raw);
  return parsed.success ? settleUnanswered(parsed.data as ModelMessage[]) : [];
}

export class AgentLoop implements AgentRunner {
  readonly modes = new SessionModes();
  private readonly histories = new Map<string, { messages: ModelMessage[]; stamp: string | undefined }>();
  private readonly pending = new Map<string, Pending>();
  private readonly prompts = new Map<string, number>();
  private readonly notes = new SessionNotes();

  constructor(private readonly deps: LoopDeps) {}

  /**
   * The session's messages: kept in memory, read back from the store after a restart, or when
   * another process (`agent chat` beside `agent serve`) spoke in the session since.
   */
  history(session: string): readonly ModelMessage[] {
    const held = this.histories.get(session);
    const stamp = this.deps.store.conversations.stamp(this.persona, session);
    if (held && held.stamp === stamp) return held.messages;
    const kept = storedHistory(this.deps.store.conversations.load(this.persona, session));
    this.histories.set(session, { messages: kept, stamp });
    return kept;
  }

  private get persona(): string {
    return this.deps.agent ?? 'default';
  }

  /**
   * Keeps the session's messages, in memory and in the store (a restart goes on from them);
   * the stored copy redacted, as every other place the store keeps what was said. When another
   * process saved the session since this one read it, its messages stay and this turn's follow.
   */
  private keep(session: string, messages: ModelMessage[]): void {
    const conversations = this.deps.store.conversations;
    const base = this.histories.get(session);
    const at = this.deps.clock.now().toISOString();
    const kept = this.deps.store.transaction(() => {
      const moved = base !== undefined && conversations.stamp(this.persona, session) !== base.stamp;
      const theirs = moved ? storedHistory(conversations.load(this.persona, session)) : [];
      const merged = moved ? mergeHistories(theirs, base.messages, messages, this.deps.config.historyTurns) : messages;
      conversations.save(this.persona, session, redactDeep(merged, Number.MAX_SAFE_INTEGER), at);
      return { messages: merged, stamp: conversations.stamp(this.persona, session) };
    });
    this.histories.set(session, kept);
  }

  /** One turn at a time per session (the gateway takes requests at once): each would save the history without the other's messages. */
  turn(request: TurnRequest): Promise<TurnResult> {
    return this.inTurn(request.session, () => this.startTurn(request));
  }

  private readonly running = new Map<string, Promise<unknown>>();

  private inTurn<T>(session: string, run: () => Promise<T>): Promise<T> {
    const next = (this.running.get(session) ?? Promise.resolve()).catch(() => undefined).then(run);
    this.running.set(session, next);
    const done = () => void (this.running.get(session) === next && this.running.delete(session));
    next.then(done, done);
    return next;
  }

  private async startTurn(request: TurnRequest): Promise<TurnResult> {
    const { session, message } = request;
    // The session's mode as the person set it, maybe while another agent had the session.
    if (request.mode) this.modes.set(session, request.mode);
    const mode = modeCommand(message);
    if (mode) return this.switchMode(request, mode);
    this.settleExpired(session);
    const waiting = this.pendingOf(session);
    if (waiting) throw new ConfirmationWaiting(waiting.view);
    const routed = routeMessage({
      message,
      mode: this.modes.get(session),
      remoteConfigured: this.deps.models.remote !== undefined,
      ...(this.deps.models.remoteProblem ? { remoteProblem: this.deps.models.remoteProblem } : {}),
      canEscalate: () => this.deps.budget.canEscalate(),
    });
    const decision = { ...routed, note: this.notes.once(session, routed.note) };
    const model = (decision.route === 'remote' ? this.deps.models.remote : undefined) ?? this.deps.models.local;
    const system = await this.deps.systemPrompt(message, session);
    this.observePrompt(session, message);
    const history = [...this.history(session), { role: 'user', content: message } as ModelMessage];
    return this.run(session, history, { model, decision, system }, request);
  }

  /** /escalate, /local, /auto: the session's routing mode; no model is called. */
  private switchMode(request: TurnRequest, mode: RouteMode): TurnResult {
    const noRemote = mode === 'escalate' && !this.deps.models.remote;
    if (!noRemote) this.modes.set(request.session, mode);
    const problem = this.deps.models.remoteProblem;
    const text = noRemote
      ? problem
        ? `The remote model cannot be used, so /escalate changed nothing: messages stay on the local model.\n${problem}`
        : `No remote model is configured, so /escalate changed nothing: messages stay on the local model.\n${NO_REMOTE_FIX}`
      : {
          auto: 'Routing is automatic again.',
          escalate: 'Every message now goes to the remote model (within the budget).',
          local: 'Every message now stays on the local model.',
        }[mode];
    request.onText?.(text);
    const route = mode === 'escalate' && !noRemote ? 'remote' : 'local';
    return { ...modelFreeResult(request.session, text, route), mode: this.modes.get(request.session) };
  }

  confirm(id: string, answer: Answer, options: Pick<TurnRequest, 'signal' | 'onText' | 'onToolCall'> = {}): Promise<TurnResult> {
    const session = this.pending.get(id)?.session;
    return session === undefined ? this.answer(id, answer, options) : this.inTurn(session, () => this.answer(id, answer, options));
  }

  private async answer(
    id: string,
    answer: Answer,
    options: Pick<TurnRequest, 'signal' | 'onText' | 'onToolCall'> = {},
  ): Promise<TurnResult> {
    const held = this.pending.get(id);
    if (!held)
      throw new UsageError(
        `No tool call waits for confirmation ${JSON.stringify(id)}.`,
        'It was answered already, or it expired; send the request again.',
      );
    if (answer === 'expired') {
      this.decline(held);
      return modelFreeResult(held.session, '', held.route.decision.route);
    }
    this.pending.delete(id);
    const expired = this.deps.clock.now().toISOString() > held.view.expiresAt;
    const approved = answer === 'yes' && !expired;
    const reply = confirmationReply(held, approved, expired, answer === 'unattended');
    if (!approved) {
      options.onToolCall?.({ id: held.toolCallId, tool: held.view.tool, input: held.view.input, refused: reply.reason });
      this.auditUnrun(held, reply.reason);
    } else held.approved.add(held.toolCallId);
    const history = [...held.history, { role: 'tool', content: reply.parts } as ModelMessage];
    return this.run(held.session, history, held.route, { session: held.session, message: '', ...options }, held);
  }

  /** Ends a conversation: its history and held calls are dropped, and learning may take it. */
  end(session: string): void {
    this.histories.delete(session);
    this.deps.store.conversations.drop(this.persona, session);
    for (const [id, p] of this.pending) if (p.session === session) this.pending.delete(id);
    const log = this.deps.toolContext.auditLog;
    if (log) appendAudit(log, { action: 'session_end', session, input: session, output: null, durationMs: 0 });
    const at = this.eventBase(session);
    observeSessionEnd(this.deps.store, at);
    summariseSession(this.deps.store, at);
  }

  /** Where and when an event of `session` happens, as the store records it. */
  private eventBase(session: string): AgentEventBase {
    return { session, ts: this.deps.clock.now().toISOString(), cwd: this.deps.toolContext.workspace, project: this.deps.project };
  }

  /** A call left unanswered past its expiry counts as declined: the model is told so with the next message. */
  private settleExpired(session: string): void {
    const held = this.pendingOf(session);
    if (held && this.deps.clock.now().toISOString() > held.view.expiresAt) this.decline(held);
  }

  /** A held call nobody answered in time: declined, audited, and kept in the conversation, without asking the model. */
  private decline(held: Pending): void {
    this.pending.delete(held.view.id);
    const reply = confirmationReply(held, false, true);
    this.auditUnrun(held, reply.reason);
    this.keep(held.session, [...held.history, { role: 'tool', content: reply.parts } as ModelMessage]);
  }

  /** Every call the model makes is audited: one the person declined, or let expire, as a call that did not run. */
  private auditUnrun(held: Pending, reason: string): void {
    const log = this.deps.toolContext.auditLog;
    if (!log) return;
    const record = (tool: string, input: unknown, why: string) =>
      appendAudit(log, { action: 'tool_exec', session: held.session, subject: tool, ok: false, input, output: why, durationMs: 0 });
    record(held.view.tool, held.view.input, reason);
    for (const other of held.others) record(other.tool, other.input, 'not run: one confirmation at a time');
  }

  private pendingOf(session: string): Pending | undefined {
    return [...this.pending.values()].find((p) => p.session === session);
  }

  private observePrompt(session: string, text: string): void {
    const key = `${session}\0${text}`;
    const occurrence = this.prompts.get(key) ?? 0;
    this.prompts.set(key, occurrence + 1);
    observePrompt(this.deps.store, { ...this.eventBase(session), text, occurrence });
  }

  /** Records one model call's usage in the budget and the audit log. */
  private recordStep(state: TurnState, request: TurnRequest, step: StepResult<ToolSet>, started: number): void {
    const { session } = request;
    state.steps++;
    state.lastFinish = step.finishReason;
    const { inputTokens, outputTokens } = usageOf(step.usage);
    const m = state.route.model;
    const cost = this.deps.budget.record({
      session,
      provider: m.provider,
      model: m.id,
      route: state.route.decision.route,
      inputTokens,
      outputTokens,
    });
    state.usage.inputTokens += inputTokens;
    state.usage.outputTokens += outputTokens;
    state.usage.costUsd = roundUsd(state.usage.costUsd + cost);
    if (this.deps.toolContext.auditLog)
      appendAudit(this.deps.toolContext.auditLog, {
        action: 'completion',
        session,
        subject: `${m.provider}:${m.id}`,
        ok: true,
        input: step.request.body ?? null,
        output: step.text,
        tokens: { input: inputTokens, output: outputTokens },
        durationMs: performance.now() - started,
      });
    for (const part of step.content) {
      if (part.type === 'tool-error' && !state.calls.has(part.toolCallId)) refuseUnreadable(this.deps, state, request, part);
      if (part.type === 'tool-approval-request')
        state.approvals.push({
          approvalId: part.approvalId,
          toolCallId: part.toolCall.toolCallId,
          tool: part.toolCall.toolName,
          input: part.toolCall.input,
        });
    }
  }

  private async run(
    session: string,
    history: ModelMessage[],
    route: TurnState['route'],
    request: TurnRequest,
    resumed?: Pending,
  ): Promise<TurnResult> {
    const state = newTurnState(
      route,
      resumed,
      request.outside === true || readsOutside(history, (name) => bringsOutsideText(this.deps.registry.get(name))),
    );
    let started = performance.now();
    const spentOnRemote = () => route.decision.route === 'remote' && !this.deps.budget.canEscalate();
    const common: CallSettings = {
      model: route.model.model,
      system: route.system,
      messages: history,
      tools: modelTools(this.deps, state, request),
      // The budget is checked between steps too: a remote turn of many steps stops once today's limit is spent.
      stopWhen: [stepCountIs(this.deps.config.maxSteps), spentOnRemote],
      maxOutputTokens: route.model.maxOutputTokens,
      maxRetries: 0,
      ...(request.signal ? { abortSignal: request.signal } : {}),
      onStepFinish: (step: StepResult<ToolSet>) => {
        state.messages = step.response.messages;
        this.recordStep(state, request, step, started);
        started = performance.now();
      },
    };
    // The router's note (budget spent, no remote model) is said first, in the stream too.
    const note = route.decision.note && !resumed ? `[${route.decision.note}]\n` : '';
    if (note) request.onText?.(note);
    const cancelled = () => {
      // A held call answered, then cancelled (Ctrl-C at the question): its answer is kept, or the
      // history would hold a tool call without its result, which every later turn is refused for.
      if (resumed) this.keep(session, trimHistory(history, this.deps.config.historyTurns));
      return new HomunculusError('cancelled', 'The turn was cancelled.', { hint: 'Send the message again.' });
    };
    let answer: { text: string; messages: ModelMessage[] };
    try {
      answer = await callModel(common, request, this.deps.stream !== false);
    } catch (err) {
      if (request.signal?.aborted) throw cancelled();
      // What already happened stays (the message, the finished steps, what each tool that ran returned):
      // else the next turn is refused for a call without its result, and a tool that ran is said never run.
      if (resumed || state.ran.size > 0) {
        const settled = settleUnanswered([...history, ...state.messages], { why: 'the model failed before it ran', ran: state.ran });
        this.keep(session, trimHistory(settled, this.deps.config.historyTurns));
      }
      const error = modelFailure(err, route.model);
      auditFailedCall(this.deps.toolContext.auditLog, { session, model: route.model, error, ms: performance.now() - started });
      throw error;
    }
    const { text, messages } = answer;
    if (request.signal?.aborted) throw cancelled();
    const next = trimHistory([...history, ...messages], this.deps.config.historyTurns);
    this.keep(session, next);
    // Stopped between steps by the budget (stopWhen above): said, so an unfinished task does not look finished.
    const spent =
      state.lastFinish === 'tool-calls' && spentOnRemote()
        ? "\n[Stopped: today's budget for the remote model is spent. `homunculus agent budget` says when it resets.]"
        : '';
    if (spent) request.onText?.(spent);
    return this.finish(session, state, note + text + spent, next, request);
  }

  private finish(session: string, state: TurnState, text: string, history: ModelMessage[], request: TurnRequest): TurnResult {
    const [first] = state.approvals;
    let pending: PendingConfirmation | undefined;
    if (first) {
      const expiresAt = new Date(this.deps.clock.now().getTime() + this.deps.config.confirmTimeoutSeconds * 1000).toISOString();
      pending = { id: first.approvalId, tool: first.tool, input: first.input, expiresAt };
      this.pending.set(first.approvalId, {
        session,
        history,
        route: state.route,
        toolCallId: first.toolCallId,
        view: pending,
        approved: state.approved,
        others: state.approvals.slice(1),
        calls: state.calls,
        outside: state.outside,
      });
    }
    const usage: TurnUsage = { ...state.usage };
    const m = state.route.model;
    const stepsNote =
      state.steps >= this.deps.config.maxSteps && state.lastFinish === 'tool-calls' && !pending
        ? `\n[stopped after ${this.deps.config.maxSteps} steps]`
        : '';
    if (stepsNote) request.onText?.(stepsNote);
    // The session's row (what the dashboard lists) follows each turn, as the Stop hook keeps an agent's.
    summariseSession(this.deps.store, this.eventBase(session));
    return {
      session,
      text: `${text}${stepsNote}`,
      toolCalls: [...state.calls.values()],
      ...(pending ? { pending } : {}),
      model: `${m.provider}:${m.id}`,
      route: state.route.decision.route,
      usage,
    };
  }
}

export type { RouteDecision };

/**
 * The agent worker (seed 001's Agent Worker) and the messages between it and the manager. A
 * worker thread holds one agent's runtime and nothing shared: turns and confirmations come in
 * as messages, streamed text, tool calls and the result (with any handoff) go out. Errors
 * cross as data and are rebuilt on the other side, keeping their hint.
 */
import { HomunculusError, UsageError } from '../core/errors.js';
import type { Handoff } from './handoff.js';
import type { RouteMode, SessionModes } from './router.js';
import { type AgentRunner, type Answer, ConfirmationWaiting, type ToolCallView, type TurnRequest, type TurnResult } from './runner.js';

export type ToWorker =
  | { type: 'turn'; id: number; session: string; message: string; outside?: boolean; mode?: RouteMode }
  | { type: 'confirm'; id: number; confirmId: string; answer: Answer }
  | { type: 'abort'; id: number };

export interface WireError {
  code: string;
  message: string;
  hint?: string;
  /** A turn refused because a call of its session waits for a yes: kept, so each surface can say how to answer there. */
  pending?: { id: string; tool: string };
}

export type FromWorker =
  | { type: 'text'; id: number; delta: string }
  | { type: 'tool'; id: number; call: ToolCallView }
  | { type: 'result'; id: number; result: TurnResult; handoff?: Handoff }
  | { type: 'error'; id: number; error: WireError };

/** The side of a MessagePort a worker uses. */
export interface Port {
  on(event: 'message', listener: (m: ToWorker) => void): unknown;
  postMessage(m: FromWorker): void;
}

export const toWire = (err: unknown): WireError =>
  err instanceof HomunculusError
    ? {
        code: err.code,
        message: err.message,
        ...(err.hint ? { hint: err.hint } : {}),
        ...(err instanceof ConfirmationWaiting ? { pending: { id: err.pending.id, tool: err.pending.tool } } : {}),
      }
    : { code: 'agent_error', message: err instanceof Error ? err.message : String(err) };

export const fromWire = (e: WireError): HomunculusError =>
  e.pending
    ? new ConfirmationWaiting(e.pending)
    : e.code === 'usage'
      ? new UsageError(e.message, e.hint)
      : new HomunculusError(e.code, e.message, e.hint ? { hint: e.hint } : {});

/** Serves `runner` on `port`; `takeHandoff` yields the handoff a turn asked for, if any. */
export function serveAgent(port: Port, runner: AgentRunner, takeHandoff: (session: string) => Handoff | undefined): void {
  const running = new Map<number, AbortController>();
  port.on('message', (m) => {
    if (m.type === 'abort') return void running.get(m.id)?.abort();
    const abort = new AbortController();
    running.set(m.id, abort);
    const hooks: Pick<TurnRequest, 'signal' | 'onText' | 'onToolCall'> = {
      signal: abort.signal,
      onText: (delta) => port.postMessage({ type: 'text', id: m.id, delta }),
      onToolCall: (call) => port.postMessage({ type: 'tool', id: m.id, call }),
    };
    const work =
      m.type === 'turn'
        ? runner.turn({
            session: m.session,
            message: m.message,
            ...(m.outside ? { outside: true } : {}),
            ...(m.mode ? { mode: m.mode } : {}),
            ...hooks,
          })
        : runner.confirm(m.confirmId, m.answer, hooks);
    work
      .then((result) => {
        const handoff = takeHandoff(result.session);
        port.postMessage({ type: 'result', id: m.id, result, ...(handoff && !result.pending ? { handoff } : {}) });
      })
      .catch((err: unknown) => port.postMessage({ type: 'error', id: m.id, error: toWire(err) }))
      .finally(() => running.delete(m.id));
  });
}

export interface ServedAgent {
  runner: AgentRunner;
  takeHandoff: (session: string) => Handoff | undefined;
}

/**
 * The agent a worker serves, built on its first request and again on the next while
 * building fails: a configuration error (a missing API key) then answers each turn with its
 * own fix, rather than crashing the thread with "send the message again".
 */
export function lazyAgent(open: () => ServedAgent): ServedAgent {
  let agent: ServedAgent | undefined;
  const built = (): ServedAgent => (agent ??= open());
  return {
    runner: {
      turn: async (request) => built().runner.turn(request),
      confirm: async (id, answer, hooks) => built().runner.confirm(id, answer, hooks),
    },
    takeHandoff: (session) => agent?.takeHandoff(session),
  };
}

/** A persona's model preference as the starting mode of each new session; /auto and the others still change it. */
export function preferModel(modes: SessionModes, model: 'local' | 'remote' | 'auto'): (session: string) => void {
  const seen = new Set<string>();
  return (session) => {
    if (seen.has(session)) return;
    seen.add(session);
    if (model !== 'auto') modes.set(session, model === 'remote' ? 'escalate' : 'local');
  };
}

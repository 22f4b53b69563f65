/**
 * One agent's worker thread as the manager sees it: requests out, replies in, matched by id.
 * A thread that throws or exits fails its requests with a clear error and is replaced on the
 * next request; one that does not answer within the timeout is terminated (which stops even
 * a busy loop) and replaced the same way. Idle threads are unref'd, so they never keep a
 * process alive on their own.
 */
import type { Worker } from 'node:worker_threads';
import { HomunculusError } from '../core/errors.js';
import { type FromWorker, type ToWorker, fromWire } from './agent-worker.js';
import type { Handoff } from './handoff.js';
import type { RouteMode } from './router.js';
import type { Answer, TurnRequest, TurnResult } from './runner.js';

export type Hooks = Pick<TurnRequest, 'signal' | 'onText' | 'onToolCall'>;
export type ThreadRequest =
  | { type: 'turn'; session: string; message: string; outside?: boolean; mode?: RouteMode }
  | { type: 'confirm'; confirmId: string; answer: Answer };

interface InFlight {
  hooks: Hooks;
  done: (r: { result: TurnResult; handoff?: Handoff }) => void;
  fail: (err: Error) => void;
}

export class AgentThread {
  private worker: Worker | undefined;
  private readonly inFlight = new Map<number, InFlight>();
  private nextId = 1;
  /** How many times the thread was (re)started: the first start counts. */
  starts = 0;

  constructor(
    readonly agent: string,
    private readonly spawn: () => Worker,
    private readonly timeoutMs: number,
  ) {}

  call(request: ThreadRequest, hooks: Hooks = {}): Promise<{ result: TurnResult; handoff?: Handoff }> {
    const worker = this.ensure();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const seconds = Math.round(this.timeoutMs / 1000);
        this.fail(
          worker,
          new HomunculusError(
            'agent_timeout',
            `The ${this.agent} agent did not answer within ${seconds} s; it was stopped and restarts with the next message.`,
            {
              hint: 'Send the message again, or raise agent.turnTimeoutSeconds in config.json.',
            },
          ),
        );
      }, this.timeoutMs);
      const onAbort = () => worker.postMessage({ type: 'abort', id } satisfies ToWorker);
      hooks.signal?.addEventListener('abort', onAbort, { once: true });
      // Already cancelled: the worker still gets the request, then at once its abort.
      if (hooks.signal?.aborted) queueMicrotask(onAbort);
      const settle = () => {
        clearTimeout(timer);
        hooks.signal?.removeEventListener('abort', onAbort);
        this.inFlight.delete(id);
        if (!this.inFlight.size) this.worker?.unref();
      };
      this.inFlight.set(id, {
        hooks,
        done: (r) => (settle(), resolve(r)),
        fail: (err) => (settle(), reject(err)),
      });
      worker.ref();
      worker.postMessage({ ...request, id } satisfies ToWorker);
    });
  }

  /** Stops the thread; requests in flight fail. */
  async close(): Promise<void> {
    const w = this.worker;
    if (!w) return;
    this.fail(w, new HomunculusError('agent_closed', `The ${this.agent} agent was closed.`));
    await w.terminate();
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    this.starts++;
    this.worker = worker;
    worker.on('message', (m: FromWorker) => this.receive(m));
    worker.on('error', (err) =>
      this.fail(
        worker,
        new HomunculusError('agent_crashed', `The ${this.agent} agent crashed (${err.message}); it restarts with the next message.`, {
          hint: 'Send the message again.',
        }),
      ),
    );
    worker.on('exit', (code) =>
      this.fail(
        worker,
        new HomunculusError('agent_crashed', `The ${this.agent} agent stopped (exit code ${code}); it restarts with the next message.`, {
          hint: 'Send the message again.',
        }),
      ),
    );
    worker.unref();
    return worker;
  }

  private receive(m: FromWorker): void {
    const call = this.inFlight.get(m.id);
    if (!call) return;
    if (m.type === 'text') call.hooks.onText?.(m.delta);
    else if (m.type === 'tool') call.hooks.onToolCall?.(m.call);
    else if (m.type === 'result') call.done({ result: m.result, ...(m.handoff ? { handoff: m.handoff } : {}) });
    else call.fail(fromWire(m.error));
  }

  /** Forgets `worker` (the next call starts a new one), terminates it, and fails what it held. */
  private fail(worker: Worker, err: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const call of [...this.inFlight.values()]) call.fail(err);
    void worker.terminate();
  }
}

/**
 * The multi-agent manager (seed 001): an AgentRunner over one worker thread per agent. Each
 * turn is routed (agent-routing.ts) unless the session already has its agent (an @mention
 * moves it); a confirmation goes back to the agent that holds it; a handoff runs the same
 * turn on the other agent with the summary, is written to the audit log, and a chain of
 * handoffs stops after MAX_HANDOFFS. A crashed or hung agent fails its own turn with the
 * reason while the other threads keep answering.
 */
import type { Worker } from 'node:worker_threads';
import { UsageError } from '../core/errors.js';
import { type Hooks, AgentThread } from './agent-thread.js';
import { type AgentRoute, mentionedName, routeAgent } from './agent-routing.js';
import { appendAudit } from './audit.js';
import { type Handoff, MAX_HANDOFFS, handoffLimitNote, handoffMessage } from './handoff.js';
import type { Persona, Skipped } from './persona.js';
import type { RouteMode } from './router.js';
import type { AgentRunner, Answer, TurnRequest, TurnResult } from './runner.js';

export interface AgentManagerOptions {
  personas: readonly Pick<Persona, 'name' | 'keywords'>[];
  /** Personas whose files could not be loaded: a message naming one is refused with why. */
  skipped?: readonly Skipped[];
  /** Starts the worker thread of one agent. */
  spawn: (agent: string) => Worker;
  /** A turn that takes longer stops its agent's thread (default 300 s). */
  turnTimeoutMs?: number;
  auditLog?: string;
}

/** A turn's result with the agent that gave it. */
export type AgentTurnResult = TurnResult & { agent: string };

export class AgentManager implements AgentRunner {
  private readonly threads = new Map<string, AgentThread>();
  private readonly sessions = new Map<string, string>();
  private readonly held = new Map<string, string>();
  /** Each session's /escalate, /local or /auto: the session's, not one agent's, so it is sent with every turn. */
  private readonly modes = new Map<string, RouteMode>();

  constructor(private readonly o: AgentManagerOptions) {}

  /** "@broken hi" to a persona that was skipped went to the default agent, "@broken" and all. */
  private refuseSkipped(message: string): void {
    const name = mentionedName(message);
    const skipped = name ? this.o.skipped?.find((s) => s.name.toLowerCase() === name) : undefined;
    if (skipped)
      throw new UsageError(
        `The agent "${skipped.name}" was skipped, so nothing was sent: ${skipped.reason}.`,
        'Fix its folder under workspace/agents/ (`homunculus agent agents` says why each was skipped), or send the message without the @name.',
      );
  }

  /** Which agent a message of `session` goes to, and why. */
  route(session: string, message: string): AgentRoute {
    const route = routeAgent(message, this.o.personas);
    const current = this.sessions.get(session);
    return route.reason === 'mention' || !current ? route : { agent: current, reason: 'default', message };
  }

  async turn(request: TurnRequest): Promise<AgentTurnResult> {
    this.refuseSkipped(request.message);
    const route = this.route(request.session, request.message);
    this.sessions.set(request.session, route.agent);
    const { session } = request;
    const result = await this.follow(
      route.agent,
      { type: 'turn', session, ...this.modeOf(session), message: route.message },
      route.message,
      request,
    );
    if (result.mode) this.modes.set(session, result.mode);
    return result;
  }

  private modeOf(session: string): { mode?: RouteMode } {
    const mode = this.modes.get(session);
    return mode ? { mode } : {};
  }

  async confirm(id: string, answer: Answer, hooks: Hooks = {}): Promise<AgentTurnResult> {
    const agent = this.held.get(id);
    if (!agent)
      throw new UsageError(
        `No tool call waits for confirmation ${JSON.stringify(id)}.`,
        'It was answered already, or it expired; send the request again.',
      );
    this.held.delete(id);
    return this.follow(agent, { type: 'confirm', confirmId: id, answer }, '', hooks);
  }

  /** The agent threads started so far: how many times each started (restarts show as more than 1). */
  starts(): Record<string, number> {
    return Object.fromEntries([...this.threads].map(([name, t]) => [name, t.starts]));
  }

  async close(): Promise<void> {
    await Promise.all([...this.threads.values()].map((t) => t.close()));
  }

  private thread(agent: string): AgentThread {
    let t = this.threads.get(agent);
    if (!t) {
      t = new AgentThread(agent, () => this.o.spawn(agent), this.o.turnTimeoutMs ?? 300_000);
      this.threads.set(agent, t);
    }
    return t;
  }

  /** Runs one request on `agent`, then each handoff it asks for, up to the limit. */
  private async follow(agent: string, first: Parameters<AgentThread['call']>[0], message: string, hooks: Hooks): Promise<AgentTurnResult> {
    let request = first;
    let text = '';
    for (let hops = 0; ; hops++) {
      const { result, handoff } = await this.thread(agent).call(request, hooks);
      if (result.pending) this.held.set(result.pending.id, agent);
      text += result.text;
      if (!handoff) return { ...result, text, agent };
      if (hops >= MAX_HANDOFFS) {
        const note = handoffLimitNote(handoff);
        hooks.onText?.(note);
        return { ...result, text: text + note, agent };
      }
      this.recordHandoff(result.session, handoff);
      this.sessions.set(result.session, handoff.to);
      text += '\n';
      agent = handoff.to;
      // The summary is the other agent's words, written after whatever it read: outside text.
      request = {
        type: 'turn',
        session: result.session,
        ...this.modeOf(result.session),
        message: handoffMessage(handoff, message),
        outside: true,
      };
    }
  }

  private recordHandoff(session: string, h: Handoff): void {
    if (this.o.auditLog)
      appendAudit(this.o.auditLog, {
        action: 'handoff',
        session,
        subject: `${h.from}->${h.to}`,
        ok: true,
        input: h.summary,
        output: h.to,
        durationMs: 0,
      });
  }
}

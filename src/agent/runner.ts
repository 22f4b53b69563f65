/**
 * The contract between the agent's loop and the surfaces that talk to a person (the terminal
 * chat, the gateway, later Telegram): a turn takes a message and returns the answer, the tool
 * calls made, and, when a dangerous tool waits for a yes, a pending confirmation that only an
 * explicit answer resumes. With nobody to ask, a surface answers 'no' (fail closed).
 */

import { HomunculusError } from '../core/errors.js';
import type { RouteMode } from './router.js';

/**
 * A message sent while a tool call of its session waits for a yes or no: each surface says how
 * to answer there. Not a bad input but a session that cannot take it now (a server's 409).
 */
export class ConfirmationWaiting extends HomunculusError {
  constructor(readonly pending: Pick<PendingConfirmation, 'id' | 'tool'>) {
    super('waiting', `A tool call is waiting for a yes or no in this session: ${pending.tool}, confirmation ${pending.id}.`, {
      hint: `Answer it first (the gateway: POST /api/v1/confirm {"id": "${pending.id}", "answer": "yes" or "no"}; a chat: y or n).`,
      exitCode: 2,
    });
    this.name = 'ConfirmationWaiting';
  }
}

/** A tool call as a person is shown it. */
export interface ToolCallView {
  id: string;
  tool: string;
  input: unknown;
  /** What the tool returned (cut for display), when it ran. */
  output?: string;
  /** Why it did not run: refused by the registry, the sandbox, or the person. */
  refused?: string;
}

/** A dangerous tool call held until the person answers. */
export interface PendingConfirmation {
  id: string;
  tool: string;
  input: unknown;
  /** After this instant the call is refused as if the answer were no. */
  expiresAt: string;
}

export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

export interface TurnResult {
  session: string;
  text: string;
  toolCalls: ToolCallView[];
  pending?: PendingConfirmation;
  /** The model that answered, and whether the router chose the local one or escalated. */
  model: string;
  route: 'local' | 'remote';
  usage: TurnUsage;
  /** The agent (persona) that answered, when several agents run (agent-manager.ts). */
  agent?: string;
  /** After /escalate, /local or /auto: the session's routing mode now in force. */
  mode?: RouteMode;
}

export interface TurnRequest {
  session: string;
  message: string;
  /** The message carries text from outside the person (another agent's handoff summary): memory writes then ask. */
  outside?: boolean;
  /** The routing mode the person set for the session (the manager's): it holds whichever agent answers. */
  mode?: RouteMode;
  signal?: AbortSignal;
  /** Streamed text as it arrives. */
  onText?: (delta: string) => void;
  /** Each tool call as it is made and again when it ends. */
  onToolCall?: (call: ToolCallView) => void;
}

/**
 * An answer to a held confirmation: the person's yes or no, 'unattended' when no one was there
 * to answer (no terminal: a no, but the model is not told the person declined), or 'expired' when
 * nobody answered in time (the call is declined and the model is told with the next message, not
 * asked now: no one is there to read what it would say, nor to answer a question it would ask next).
 */
export type Answer = 'yes' | 'no' | 'unattended' | 'expired';

export interface AgentRunner {
  turn(request: TurnRequest): Promise<TurnResult>;
  /** The person's answer to a pending confirmation; resumes the held turn ('expired': nobody answered, so the model is not asked). */
  confirm(id: string, answer: Answer, options?: Pick<TurnRequest, 'signal' | 'onText' | 'onToolCall'>): Promise<TurnResult>;
}

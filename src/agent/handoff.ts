/**
 * Handoff: an agent hands the conversation to another with a summary of what it knows. The
 * `handoff` tool only records the wish (it runs nothing); the manager acts on it after the
 * turn, writes it to the audit log, and stops a chain of handoffs after MAX_HANDOFFS so two
 * agents cannot pass a message back and forth forever.
 */
import { z } from 'zod';
import { UsageError } from '../core/errors.js';
import { type Tool, defineTool } from './tools/registry.js';

export const MAX_HANDOFFS = 3;

export interface Handoff {
  from: string;
  to: string;
  summary: string;
}

/** The handoffs asked for in this thread, by session, until the turn's end takes them. */
export class HandoffBox {
  private readonly wishes = new Map<string, Handoff>();
  put(session: string, h: Handoff): void {
    this.wishes.set(session, h);
  }
  take(session: string): Handoff | undefined {
    const h = this.wishes.get(session);
    this.wishes.delete(session);
    return h;
  }
}

/** The tool through which agent `self` hands a session to one of `agents`. */
export function handoffTool(self: string, agents: readonly string[], box: HandoffBox): Tool {
  const others = agents.filter((a) => a !== self);
  return defineTool({
    name: 'handoff',
    description: `Hand this conversation to another agent (${others.join(', ') || 'none'}) when it suits them better; give a summary of what they need to know.`,
    input: z.object({ to: z.string().min(1), summary: z.string().trim().min(1).max(4000) }).strict(),
    trust: 'trusted',
    confirm: false,
    run: (ctx, input) => {
      if (!others.includes(input.to))
        throw new UsageError(`No other agent is named ${JSON.stringify(input.to)}.`, `Hand off to one of: ${others.join(', ')}.`);
      box.put(ctx.session, { from: self, to: input.to, summary: input.summary });
      return { handed_to: input.to, note: 'The other agent answers next; end your turn with a short sentence.' };
    },
  }) as Tool;
}

/** What the receiving agent is told: who handed over, the summary, and the person's message. Pure. */
export const handoffMessage = (h: Handoff, message: string): string =>
  `[Handed over by the ${h.from} agent. Its summary: ${h.summary}]\n\n${message}`;

/** The note that ends a chain of handoffs that went on too long. Pure. */
export const handoffLimitNote = (h: Handoff): string =>
  `\n[The handoff from ${h.from} to ${h.to} was stopped: ${MAX_HANDOFFS} handoffs in one turn already (a loop between agents?). ` +
  `Name the agent you want with @name.]`;

/**
 * A minimal AgentRunner for testing the surfaces (the gateway, its bench) end to end: the
 * model is AI SDK 6's MockLanguageModelV3 playing a script, the tools are the real registry.
 * A tool that needs a yes holds the turn as a pending confirmation until `confirm` answers;
 * an unknown, used or expired id is refused. The real loop (router, budget, prompt, 25
 * turns, streaming) is src/agent's; this one only honours the contract of runner.ts.
 */
import { type ModelMessage, generateText, jsonSchema, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { randomUUID } from 'node:crypto';
import {
  type AgentRunner,
  ConfirmationWaiting,
  type PendingConfirmation,
  type ToolCallView,
  type TurnRequest,
  type TurnResult,
} from '../agent/runner.js';
import type { ToolContext, ToolRegistry } from '../agent/tools/registry.js';
import { NotFoundError } from '../core/errors.js';

/** One step of the script: the model answers text, or calls a tool. */
export type ScriptStep = { text: string } | { tool: string; input: unknown };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** A mock model that plays `script` one step per call, then answers "done." forever. */
export function scriptedModel(script: readonly ScriptStep[]): MockLanguageModelV3 {
  let at = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const step = script[at++] ?? { text: 'done.' };
      if ('text' in step)
        return { content: [{ type: 'text', text: step.text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
      const call = { type: 'tool-call' as const, toolCallId: `call-${at}`, toolName: step.tool, input: JSON.stringify(step.input) };
      return { content: [call], finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage, warnings: [] };
    },
  });
}

interface Held extends Turn {
  call: { toolCallId: string; toolName: string; input: unknown };
  expires: number;
}

export interface MockRunnerOptions {
  model: MockLanguageModelV3;
  registry: ToolRegistry;
  context: Omit<ToolContext, 'confirm' | 'session'>;
  confirmTtlMs?: number;
  now?: () => number;
}

interface Turn {
  session: string;
  messages: ModelMessage[];
  calls: ToolCallView[];
}

const result = (t: Turn, text: string, pending?: PendingConfirmation): TurnResult => ({
  session: t.session,
  text,
  toolCalls: t.calls,
  ...(pending ? { pending } : {}),
  model: 'mock',
  route: 'local',
  usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
});

class MockRunner implements AgentRunner {
  readonly ran: string[] = [];
  private readonly held = new Map<string, Held>();
  private readonly tools: Record<string, ReturnType<typeof tool>>;
  private readonly now: () => number;

  constructor(private readonly o: MockRunnerOptions) {
    this.now = o.now ?? Date.now;
    this.tools = Object.fromEntries(
      o.registry.definitions().map((d) => [d.name, tool({ description: d.description, inputSchema: jsonSchema(d.inputSchema as object) })]),
    );
  }

  turn(req: TurnRequest): Promise<TurnResult> {
    for (const [id, h] of this.held)
      if (h.session === req.session && h.expires > this.now())
        return Promise.reject(new ConfirmationWaiting({ id, tool: h.call.toolName }));
    return this.loop({ session: req.session, messages: [{ role: 'user', content: req.message }], calls: [] });
  }

  async confirm(id: string, answer: 'yes' | 'no'): Promise<TurnResult> {
    const h = this.held.get(id);
    this.held.delete(id);
    if (!h) throw new NotFoundError(`a pending confirmation with id ${id}`);
    await this.answer(h, h.call, answer === 'yes' && h.expires > this.now());
    return this.loop(h);
  }

  private async loop(t: Turn): Promise<TurnResult> {
    for (let step = 0; step < 25; step++) {
      const r = await generateText({ model: this.o.model, messages: t.messages, tools: this.tools });
      t.messages.push(...r.response.messages);
      const call = r.toolCalls[0];
      if (!call) return result(t, r.text);
      const view: Held['call'] = { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input };
      if (this.o.registry.get(call.toolName)?.confirm) {
        const id = randomUUID();
        const expires = this.now() + (this.o.confirmTtlMs ?? 5 * 60_000);
        this.held.set(id, { ...t, call: view, expires });
        return result(t, r.text, { id, tool: call.toolName, input: call.input, expiresAt: new Date(expires).toISOString() });
      }
      await this.answer(t, view);
    }
    return result(t, 'Stopped after 25 steps.');
  }

  /** Runs the call through the registry (with the person's answer, when one was asked) and feeds the result back. */
  private async answer(t: Turn, call: Held['call'], yes?: boolean): Promise<void> {
    const outcome = await this.o.registry.run(call.toolName, call.input, {
      ...this.o.context,
      session: t.session,
      ...(yes === undefined ? {} : { confirm: async () => yes }),
    });
    if (outcome.ok) this.ran.push(call.toolName);
    const output = outcome.ok ? JSON.stringify(outcome.output) : outcome.error;
    t.calls.push({ id: call.toolCallId, tool: call.toolName, input: call.input, ...(outcome.ok ? { output } : { refused: output }) });
    t.messages.push({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: { type: 'text', value: output } }],
    });
  }
}

export function mockRunner(o: MockRunnerOptions): AgentRunner & { ran: string[] } {
  return new MockRunner(o);
}

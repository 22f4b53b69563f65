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
import type { AgentRunner, PendingConfirmation, ToolCallView, TurnResult } from '../agent/runner.js';
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

interface Held {
  session: string;
  messages: ModelMessage[];
  call: { toolCallId: string; toolName: string; input: unknown };
  calls: ToolCallView[];
  expires: number;
}

export interface MockRunnerOptions {
  model: MockLanguageModelV3;
  registry: ToolRegistry;
  context: Omit<ToolContext, 'confirm' | 'session'>;
  confirmTtlMs?: number;
  now?: () => number;
}

export function mockRunner(o: MockRunnerOptions): AgentRunner & { ran: string[] } {
  const held = new Map<string, Held>();
  const ran: string[] = [];
  const now = o.now ?? Date.now;
  const tools = Object.fromEntries(
    o.registry.definitions().map((d) => [d.name, tool({ description: d.description, inputSchema: jsonSchema(d.inputSchema as object) })]),
  );
  const runTool = async (session: string, call: Held['call'], answer?: boolean) => {
    const outcome = await o.registry.run(call.toolName, call.input, {
      ...o.context,
      session,
      ...(answer === undefined ? {} : { confirm: async () => answer }),
    });
    if (outcome.ok) ran.push(call.toolName);
    return outcome;
  };
  const result = (session: string, text: string, calls: ToolCallView[], pending?: PendingConfirmation): TurnResult => ({
    session,
    text,
    toolCalls: calls,
    ...(pending ? { pending } : {}),
    model: 'mock',
    route: 'local',
    usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 },
  });
  const loop = async (session: string, messages: ModelMessage[], calls: ToolCallView[]): Promise<TurnResult> => {
    for (let turn = 0; turn < 25; turn++) {
      const r = await generateText({ model: o.model, messages, tools });
      messages.push(...r.response.messages);
      const call = r.toolCalls[0];
      if (!call) return result(session, r.text, calls);
      const view: Held['call'] = { toolCallId: call.toolCallId, toolName: call.toolName, input: call.input };
      if (o.registry.get(call.toolName)?.confirm) {
        const id = randomUUID();
        const expires = now() + (o.confirmTtlMs ?? 5 * 60_000);
        held.set(id, { session, messages, call: view, calls, expires });
        const pending = { id, tool: call.toolName, input: call.input, expiresAt: new Date(expires).toISOString() };
        return result(session, r.text, calls, pending);
      }
      await answerCall(session, messages, calls, view);
    }
    return result(session, 'Stopped after 25 turns.', calls);
  };
  const answerCall = async (session: string, messages: ModelMessage[], calls: ToolCallView[], call: Held['call'], answer?: boolean) => {
    const outcome = await runTool(session, call, answer);
    const output = outcome.ok ? JSON.stringify(outcome.output) : outcome.error;
    calls.push({ id: call.toolCallId, tool: call.toolName, input: call.input, ...(outcome.ok ? { output } : { refused: output }) });
    messages.push({
      role: 'tool',
      content: [{ type: 'tool-result', toolCallId: call.toolCallId, toolName: call.toolName, output: { type: 'text', value: output } }],
    });
  };
  return {
    ran,
    turn: (req) => loop(req.session, [{ role: 'user', content: req.message }], []),
    async confirm(id, answer) {
      const h = held.get(id);
      held.delete(id);
      if (!h) throw new NotFoundError(`a pending confirmation with id ${id}`);
      const yes = answer === 'yes' && h.expires > now();
      await answerCall(h.session, h.messages, h.calls, h.call, yes);
      return loop(h.session, h.messages, h.calls);
    },
  };
}

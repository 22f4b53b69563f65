/** One call of the model for a turn, with its tool steps: streamed (text as it comes) or whole. */
import { type ModelMessage, type ToolSet, generateText, streamText } from 'ai';
import { appendAudit } from './audit.js';
import type { AgentModel } from './providers.js';
import type { TurnRequest } from './runner.js';

export type CallSettings = Parameters<typeof generateText<ToolSet>>[0] & Parameters<typeof streamText<ToolSet>>[0];

/** One model call with its tool steps: streamed (text as it comes) or whole. */
export async function callModel(
  settings: CallSettings,
  request: TurnRequest,
  stream: boolean,
): Promise<{ text: string; messages: ModelMessage[] }> {
  if (!stream) {
    const result = await generateText(settings);
    if (result.text) request.onText?.(result.text);
    return { text: result.text, messages: result.response.messages };
  }
  let failure: unknown;
  const result = streamText({ ...settings, onError: ({ error }) => void (failure ??= error) });
  let text = '';
  for await (const part of result.fullStream) {
    if (part.type === 'text-delta') {
      text += part.text;
      request.onText?.(part.text);
    } else if (part.type === 'error') failure ??= part.error;
  }
  if (failure) throw failure;
  const { messages } = await result.response;
  // A stream the provider could not read (ollama-ai-provider-v2 drops bad lines) ends with nothing and no reason.
  if (!text && messages.length <= 1 && (await result.finishReason) === 'other' && (await result.usage).outputTokens === undefined)
    throw Object.assign(new Error('its answer could not be read (not the API’s JSON)'), { name: 'AI_UnreadableAnswer' });
  return { text, messages };
}

/** A call that failed is in the audit log too, as every model call is: which model, and why. */
export function auditFailedCall(log: string | undefined, call: { session: string; model: AgentModel; error: unknown; ms: number }): void {
  if (!log) return;
  const { session, model, error, ms } = call;
  appendAudit(log, {
    action: 'completion',
    session,
    subject: `${model.provider}:${model.id}`,
    ok: false,
    input: null,
    output: error instanceof Error ? error.message : String(error),
    durationMs: ms,
  });
}

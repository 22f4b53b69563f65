/**
 * HTTP stubs on 127.0.0.1 speaking the real wire formats of the Anthropic Messages API and
 * the OpenAI chat-completions API, so provider tests exercise real HTTP without a paid call.
 */
import type { IncomingMessage } from 'node:http';
import { startLoopback } from './loopback.js';

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface Stub {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Reply = { status?: number; json: unknown; delayMs?: number };

export async function startStub(reply: (req: RecordedRequest) => Reply): Promise<Stub> {
  const requests: RecordedRequest[] = [];
  const loopback = await startLoopback((url, body, _raw, res, req) => {
    const recorded = { method: req.method ?? '', url, headers: req.headers, body };
    requests.push(recorded);
    const r = reply(recorded);
    const send = (): void => {
      if (res.destroyed) return;
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r.json));
    };
    if (r.delayMs) setTimeout(send, r.delayMs).unref();
    else send();
  });
  return { baseUrl: `${loopback.baseUrl}/v1`, requests, close: loopback.close };
}

/** A Messages API answer whose text is `text` (what structured output returns). */
export function anthropicMessage(text: string, usage = { input_tokens: 812, output_tokens: 96 }): unknown {
  return {
    id: 'msg_stub_01',
    type: 'message',
    role: 'assistant',
    model: 'claude-haiku-4-5',
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage,
  };
}

export function anthropicError(type: string, message: string): unknown {
  return { type: 'error', error: { type, message } };
}

/** A chat-completions answer (Ollama, llama.cpp, vLLM speak this). */
export function chatCompletion(content: string, usage = { prompt_tokens: 700, completion_tokens: 80 }): unknown {
  return {
    id: 'chatcmpl-stub',
    object: 'chat.completion',
    created: 1767225600,
    model: 'qwen2.5-coder',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/**
 * A loopback stub of Ollama's `/api/chat`: the whole answer as one JSON object, or streamed
 * as NDJSON (one object per line, `done: true` on the last, with prompt_eval_count and
 * eval_count). Tool calls come as `message.tool_calls` with the arguments as an object, as
 * Ollama sends them. A script decides each turn; `chunkDelayMs` paces a streamed answer so
 * a test can cancel it midway.
 */
import type { ServerResponse } from 'node:http';
import { startLoopback } from './loopback.js';

export type StubTurn =
  | { tool: { name: string; input: Record<string, unknown> } }
  | { text: string }
  /** An HTTP error with Ollama's error body ({"error": "..."}). */
  | { status: number; error: string }
  /** A 200 whose body is not the API's JSON. */
  | { garbage: string };

/** A turn the model answers (a text or a tool call), as opposed to a failure. */
type Answer = Exclude<StubTurn, { error: string } | { garbage: string }>;

export interface OllamaRequest {
  model: string;
  stream: boolean;
  tools: string[];
  messages: { role: string; content?: string; tool_calls?: unknown[] }[];
  /** How many tool results the conversation holds so far. */
  toolResults: number;
  raw: string;
}

export interface OllamaStub {
  baseUrl: string;
  requests: OllamaRequest[];
  close(): Promise<void>;
}

export const OLLAMA_USAGE = { prompt_eval_count: 30, eval_count: 9 };

/** Calls each tool in turn, one per request, then ends with `text`. */
export function ollamaToolSequence(tools: readonly { name: string; input: Record<string, unknown> }[], text = 'Done.') {
  return (req: OllamaRequest): StubTurn => {
    const tool = tools[req.toolResults];
    return tool && req.tools.includes(tool.name) ? { tool } : { text };
  };
}

/** Calls `tool` whenever the person has just spoken, answers `text` after its result. */
export function ollamaOneToolCall(tool: { name: string; input: Record<string, unknown> }, text = 'Done.') {
  return (req: OllamaRequest): StubTurn => (req.messages.at(-1)?.role === 'tool' ? { text } : { tool });
}

const base = (model: string) => ({ model, created_at: new Date().toISOString() });

function message(turn: Answer, content: string) {
  return 'tool' in turn
    ? { role: 'assistant', content: '', tool_calls: [{ function: { name: turn.tool.name, arguments: turn.tool.input } }] }
    : { role: 'assistant', content };
}

const final = (model: string) => ({ ...base(model), done: true, done_reason: 'stop', total_duration: 1_000_000, ...OLLAMA_USAGE });

async function stream(res: ServerResponse, req: OllamaRequest, turn: Answer, delayMs: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  const chunks = 'tool' in turn ? [''] : (turn.text.match(/\S+\s*/g) ?? ['']);
  for (const chunk of chunks) {
    if (res.destroyed) return;
    res.write(`${JSON.stringify({ ...base(req.model), message: message(turn, chunk), done: false })}\n`);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
  }
  res.end(`${JSON.stringify({ ...final(req.model), message: { role: 'assistant', content: '' } })}\n`);
}

export async function startOllamaStub(
  script: (req: OllamaRequest) => StubTurn,
  options: { chunkDelayMs?: number } = {},
): Promise<OllamaStub> {
  const requests: OllamaRequest[] = [];
  const server = await startLoopback((url, body, raw, res) => {
    if (!url.startsWith('/api/chat')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: `the stub answers /api/chat only, not ${url}` }));
      return;
    }
    const messages = Array.isArray(body.messages) ? (body.messages as OllamaRequest['messages']) : [];
    const req: OllamaRequest = {
      model: typeof body.model === 'string' ? body.model : 'llama-stub',
      stream: body.stream !== false,
      tools: Array.isArray(body.tools) ? body.tools.map((t) => String((t as { function?: { name?: unknown } }).function?.name)) : [],
      messages,
      toolResults: messages.filter((m) => m.role === 'tool').length,
      raw,
    };
    requests.push(req);
    const turn = script(req);
    if ('error' in turn) {
      res.writeHead(turn.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: turn.error }));
    } else if ('garbage' in turn) {
      res.writeHead(200, { 'content-type': req.stream ? 'application/x-ndjson' : 'application/json' });
      res.end(turn.garbage);
    } else if (req.stream) void stream(res, req, turn, options.chunkDelayMs ?? 0);
    else {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...final(req.model), message: message(turn, 'text' in turn ? turn.text : '') }));
    }
  });
  return { ...server, requests };
}

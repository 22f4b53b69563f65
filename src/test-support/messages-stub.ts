/**
 * A loopback stub of the Anthropic Messages API for driving the real Claude Code headless
 * (`claude -p` with ANTHROPIC_BASE_URL pointing here): plain JSON answers and the streamed
 * server-sent events (message_start, content_block_start/delta/stop, message_delta,
 * message_stop). A script decides each turn: call a tool, or answer with text.
 */
import type { ServerResponse } from 'node:http';
import { startLoopback } from './loopback.js';

/** A tool call, an answer, or an error status with the API's error body (a 500, a 429). */
type Turn = { tool: { name: string; input: Record<string, unknown> } } | { text: string } | { status: number };

interface MessagesRequest {
  url: string;
  model: string;
  stream: boolean;
  tools: string[];
  messages: { role: string; content: unknown }[];
  /** Everything in the request as text (system prompt, messages), to look for injected context. */
  raw: string;
}

export interface MessagesStub {
  baseUrl: string;
  requests: MessagesRequest[];
  close(): Promise<void>;
}

/** The last message holds a tool result: the tool ran and the model gets its output. */
function afterToolResult(req: MessagesRequest): boolean {
  const last = req.messages.at(-1)?.content;
  return Array.isArray(last) && last.some((b) => (b as { type?: string }).type === 'tool_result');
}

/** Calls each tool in turn, one per request, then ends with `text`. */
export function toolSequence(
  tools: readonly { name: string; input: Record<string, unknown> }[],
  text = 'Done.',
): (req: MessagesRequest) => Turn {
  return (req) => {
    const results = req.messages.filter(
      (m) => Array.isArray(m.content) && m.content.some((b) => (b as { type?: string }).type === 'tool_result'),
    ).length;
    const tool = tools[results];
    return tool && req.tools.includes(tool.name) ? { tool } : { text };
  };
}

/** Calls `tool` on the first turn of a conversation that offers it, then ends with `text`. */
export function oneToolCall(tool: { name: string; input: Record<string, unknown> }, text = 'Done.'): (req: MessagesRequest) => Turn {
  return (req) => (req.tools.includes(tool.name) && !afterToolResult(req) ? { tool } : { text });
}

let nextId = 1;

function events(model: string, turn: Exclude<Turn, { status: number }>): [string, unknown][] {
  const usage = { input_tokens: 25, output_tokens: 7 };
  const message = {
    id: `msg_stub_${nextId++}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  };
  const out: [string, unknown][] = [['message_start', { type: 'message_start', message }]];
  if ('tool' in turn) {
    const block = { type: 'tool_use', id: `toolu_stub_${nextId++}`, name: turn.tool.name, input: {} };
    out.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: block }]);
    out.push([
      'content_block_delta',
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(turn.tool.input) } },
    ]);
  } else {
    out.push(['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }]);
    out.push(['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: turn.text } }]);
  }
  out.push(['content_block_stop', { type: 'content_block_stop', index: 0 }]);
  const stop = 'tool' in turn ? 'tool_use' : 'end_turn';
  out.push(['message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 7 } }]);
  out.push(['message_stop', { type: 'message_stop' }]);
  return out;
}

function whole(model: string, turn: Exclude<Turn, { status: number }>): unknown {
  const content = 'tool' in turn ? [{ type: 'tool_use', id: `toolu_stub_${nextId++}`, ...turn.tool }] : [{ type: 'text', text: turn.text }];
  const stop = 'tool' in turn ? 'tool_use' : 'end_turn';
  return {
    id: `msg_stub_${nextId++}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 25, output_tokens: 7 },
  };
}

function answer(res: ServerResponse, req: MessagesRequest, turn: Turn): void {
  if ('status' in turn) {
    res.writeHead(turn.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `stub error ${turn.status}` } }));
    return;
  }
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(whole(req.model, turn)));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events(req.model, turn)) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  res.end();
}

export async function startMessagesStub(script: (req: MessagesRequest) => Turn): Promise<MessagesStub> {
  const requests: MessagesRequest[] = [];
  const server = await startLoopback((url, body, raw, res) => {
    if (!url.startsWith('/v1/messages') || url.includes('count_tokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ input_tokens: 25 }));
      return;
    }
    const req: MessagesRequest = {
      url,
      model: typeof body.model === 'string' ? body.model : 'claude-stub',
      stream: body.stream === true,
      tools: Array.isArray(body.tools) ? body.tools.map((t) => String((t as { name?: unknown }).name)) : [],
      messages: Array.isArray(body.messages) ? (body.messages as MessagesRequest['messages']) : [],
      raw,
    };
    requests.push(req);
    answer(res, req, script(req));
  });
  return { ...server, requests };
}

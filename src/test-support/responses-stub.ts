/**
 * A loopback stub of the OpenAI Responses API as Codex CLI uses it (POST /v1/responses,
 * streamed server-sent events: response.created, response.output_item.done with a
 * function_call or an assistant message, response.completed). A script decides each turn
 * from the number of tool results the request already carries.
 */
import { type Loopback, startLoopback, writeEvents } from './loopback.js';

export type ScriptTurn = { tool: { name: string; args: Record<string, unknown> } } | { text: string };

export interface ModelRequest {
  url: string;
  /** Tool results already in the conversation: 0 on a turn's first request. */
  toolResults: number;
  /** The whole request body, to look for injected context. */
  raw: string;
}

export interface ModelStub extends Loopback {
  requests: ModelRequest[];
}

/** Runs `calls` one after the other, then answers `text`. */
export const toolCalls =
  (calls: readonly { name: string; args: Record<string, unknown> }[], text = 'Done.') =>
  (req: ModelRequest): ScriptTurn => {
    const next = calls[req.toolResults];
    return next ? { tool: next } : { text };
  };

let nextId = 1;

function item(turn: ScriptTurn): unknown {
  const id = nextId++;
  if ('tool' in turn)
    return {
      type: 'function_call',
      id: `fc_${id}`,
      call_id: `call_${id}`,
      name: turn.tool.name,
      arguments: JSON.stringify(turn.tool.args),
    };
  return { type: 'message', id: `msg_${id}`, role: 'assistant', content: [{ type: 'output_text', text: turn.text }] };
}

export async function startResponsesStub(script: (req: ModelRequest) => ScriptTurn): Promise<ModelStub> {
  const requests: ModelRequest[] = [];
  const server = await startLoopback((url, body, raw, res) => {
    if (!url.includes('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    const input = Array.isArray(body.input) ? (body.input as { type?: string }[]) : [];
    const req: ModelRequest = { url, toolResults: input.filter((i) => /_call_output$/.test(i.type ?? '')).length, raw };
    requests.push(req);
    const id = `resp_${nextId++}`;
    const usage = { input_tokens: 25, input_tokens_details: null, output_tokens: 7, output_tokens_details: null, total_tokens: 32 };
    writeEvents(res, [
      ['response.created', { type: 'response.created', response: { id } }],
      ['response.output_item.done', { type: 'response.output_item.done', item: item(script(req)) }],
      ['response.completed', { type: 'response.completed', response: { id, usage } }],
    ]);
  });
  return { ...server, requests };
}

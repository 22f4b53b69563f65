/**
 * A loopback stub of the Gemini API as Gemini CLI uses it: streamGenerateContent (server-sent
 * events, `?alt=sse`) and generateContent (one JSON answer), each a candidate with a
 * functionCall or text. Requests without tools that ask for JSON (the client's own checks,
 * such as who speaks next) get a small JSON answer; countTokens gets a count.
 */
import { writeEvents, startLoopback } from './loopback.js';
import type { ModelRequest, ModelStub, ScriptTurn } from './responses-stub.js';

function candidate(parts: unknown[]): unknown {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 25, candidatesTokenCount: 7, totalTokenCount: 32 },
  };
}

export async function startGeminiStub(script: (req: ModelRequest) => ScriptTurn): Promise<ModelStub> {
  const requests: ModelRequest[] = [];
  const server = await startLoopback((url, body, raw, res) => {
    if (url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: 25 }));
      return;
    }
    const contents = Array.isArray(body.contents) ? (body.contents as { parts?: { functionResponse?: unknown }[] }[]) : [];
    let parts: unknown[];
    if (!Array.isArray(body.tools) || body.tools.length === 0) {
      parts = [{ text: JSON.stringify({ reasoning: 'stub', next_speaker: 'user' }) }];
    } else {
      const req: ModelRequest = { url, toolResults: contents.filter((c) => (c.parts ?? []).some((p) => p.functionResponse)).length, raw };
      requests.push(req);
      const turn = script(req);
      parts = 'tool' in turn ? [{ functionCall: { name: turn.tool.name, args: turn.tool.args } }] : [{ text: turn.text }];
    }
    if (url.includes(':streamGenerateContent')) return writeEvents(res, [[undefined, candidate(parts)]]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(candidate(parts)));
  });
  return { ...server, requests };
}

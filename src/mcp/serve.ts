/** Transports: stdio for agents that spawn us, Streamable HTTP on 127.0.0.1 for the rest. */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { loadConfig } from '../core/config.js';
import { checkRequestHead } from '../core/local-request.js';
import { joinedProject } from '../app/project-ref.js';
import { detectProject } from '../core/project.js';
import type { Store } from '../store/store.js';
import { MAX_MESSAGE_BYTES, guardedInput } from './line-guard.js';
import { createMcpServer } from './server.js';
import type { ToolContext } from './tool.js';

export function toolContext(store: Store, cwd = process.cwd()): ToolContext {
  const project = joinedProject(store, detectProject(cwd));
  const mcp = (loadConfig(store.paths.config).mcp ?? {}) as { allowed_roots?: unknown };
  const extra = Array.isArray(mcp.allowed_roots) ? mcp.allowed_roots.filter((r): r is string => typeof r === 'string') : [];
  const root = project.root || cwd;
  return { store, project: project.fingerprint, root, readRoots: [root, store.paths.home, ...extra] };
}

export function serveMcpStdio(ctx: ToolContext, version: string): { close: () => Promise<void> } {
  // A line the server cannot take is answered, not dropped in silence (line-guard.ts).
  const transport = new StdioServerTransport(guardedInput(process.stdin, process.stdout), process.stdout);
  return serveStdio(() => createMcpServer(ctx, version), { transport });
}

interface HttpServerHandle {
  url: string;
  close: () => Promise<void>;
}

class BodyTooLarge extends Error {}

/** Reads the body, refusing it before reading when announced too large and once it grows too large. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  if (Number(req.headers['content-length'] ?? 0) > MAX_MESSAGE_BYTES) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_MESSAGE_BYTES) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  return chunks.length ? Buffer.concat(chunks) : undefined;
}

function toRequest(req: IncomingMessage, port: number, path: string, body: Buffer | undefined): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else if (v !== undefined) headers.set(k, v);
  }
  return new Request(`http://127.0.0.1:${port}${path}`, { method: req.method, headers, body });
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  }
  res.end();
}

function refuse(res: ServerResponse, status: number, message: string): void {
  const headers: Record<string, string> = { 'content-type': 'text/plain', connection: 'close' };
  if (status === 401) headers['www-authenticate'] = 'Bearer';
  res.writeHead(status, headers);
  res.end(`${message}\n`);
}

/**
 * Serves /mcp on 127.0.0.1 only. Host, Origin, target and token are checked from the
 * request head, before a byte of the body is read; the body is read up to a limit.
 */
export async function serveMcpHttp(ctx: ToolContext, version: string, token: string, port = 0): Promise<HttpServerHandle> {
  const handler = createMcpHandler(() => createMcpServer(ctx, version));
  const server = createServer((req, res) => {
    void (async () => {
      const { port: bound } = server.address() as AddressInfo;
      const verdict = checkRequestHead(
        { url: req.url, host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization },
        bound,
        token,
      );
      if (!verdict.ok) return refuse(res, verdict.status, verdict.message);
      if (verdict.path !== '/mcp') return refuse(res, 404, 'Not found: the MCP endpoint is /mcp');
      try {
        const request = toRequest(req, bound, verdict.path, await readBody(req));
        await send(res, await handler.fetch(request));
      } catch (err) {
        if (err instanceof BodyTooLarge) return refuse(res, 413, `Payload too large: at most ${MAX_MESSAGE_BYTES} bytes`);
        process.stderr.write(`homunculus mcp http: ${(err as Error).message}\n`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('internal error\n');
      }
    })();
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

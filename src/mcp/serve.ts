/** Transports: stdio for agents that spawn us, Streamable HTTP on 127.0.0.1 for the rest. */
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { loadConfig } from '../core/config.js';
import { detectProject } from '../core/project.js';
import type { Store } from '../store/store.js';
import { createMcpServer } from './server.js';
import type { ToolContext } from './tool.js';

export function toolContext(store: Store, cwd = process.cwd()): ToolContext {
  const project = detectProject(cwd);
  const mcp = (loadConfig(store.paths.config).mcp ?? {}) as { allowed_roots?: unknown };
  const extra = Array.isArray(mcp.allowed_roots) ? mcp.allowed_roots.filter((r): r is string => typeof r === 'string') : [];
  const root = project.root || cwd;
  return { store, project: project.fingerprint, root, readRoots: [root, store.paths.home, ...extra] };
}

export function serveMcpStdio(ctx: ToolContext, version: string): { close: () => Promise<void> } {
  return serveStdio(() => createMcpServer(ctx, version));
}

interface HttpServerHandle {
  url: string;
  close: () => Promise<void>;
}

async function toRequest(req: IncomingMessage, port: number): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (Array.isArray(v)) v.forEach((x) => headers.append(k, x));
    else if (v !== undefined) headers.set(k, v);
  }
  const body = chunks.length && req.method !== 'GET' && req.method !== 'HEAD' ? Buffer.concat(chunks) : undefined;
  return new Request(`http://127.0.0.1:${port}${req.url ?? '/'}`, { method: req.method, headers, body });
}

/** Serves /mcp on 127.0.0.1 only, refusing foreign Host and Origin headers (DNS rebinding). */
export async function serveMcpHttp(ctx: ToolContext, version: string, port = 0): Promise<HttpServerHandle> {
  const handler = createMcpHandler(() => createMcpServer(ctx, version));
  const server = createServer((req, res) => {
    void (async () => {
      const { port: bound } = server.address() as AddressInfo;
      try {
        const request = await toRequest(req, bound);
        const url = new URL(request.url);
        const rejected =
          hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
          (request.headers.get('origin') ? originValidationResponse(request, localhostAllowedOrigins()) : undefined);
        const response =
          rejected ??
          (url.pathname === '/mcp' ? await handler.fetch(request) : new Response('Not found: the MCP endpoint is /mcp\n', { status: 404 }));
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
      } catch (err) {
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

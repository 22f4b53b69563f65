/** A loopback HTTP server for the model API stubs: reads each JSON body, hands it to a handler, closes cleanly. */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Loopback {
  baseUrl: string;
  close(): Promise<void>;
}

export type JsonHandler = (url: string, body: Record<string, unknown>, raw: string, res: ServerResponse, req: IncomingMessage) => void;

export async function startLoopback(handle: JsonHandler): Promise<Loopback> {
  const server = createServer((incoming: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    incoming.on('data', (d: Buffer) => (raw += d.toString('utf8')));
    incoming.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        // An empty or broken body is answered like any other.
      }
      handle(incoming.url ?? '', body, raw, res, incoming);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** Writes server-sent events: `event:` lines when named, then the data. */
export function writeEvents(res: ServerResponse, events: readonly [string | undefined, unknown][]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const [event, data] of events) res.write(`${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`);
  res.end();
}

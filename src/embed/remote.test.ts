import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteProvider } from './remote.js';

// A stub speaking the OpenAI /v1/embeddings and Ollama /api/embed wire formats on 127.0.0.1.
const requests: { url: string; auth: string | undefined; body: { model: string; input: string[] } }[] = [];
let mode: 'ok' | 'error' | 'garbage' | 'wrong-dims' = 'ok';
const vectorFor = (text: string, dims: number) => Array.from({ length: dims }, (_, i) => (text.length % 7) + i + 1);

let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const body = JSON.parse(raw) as { model: string; input: string[] };
      requests.push({ url: req.url ?? '', auth: req.headers.authorization, body });
      if (mode === 'error') return void res.writeHead(500).end('model not loaded');
      if (mode === 'garbage') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"nothing": true}');
      const dims = mode === 'wrong-dims' && body.input.length > 1 ? 3 : 4;
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url === '/v1/embeddings') {
        // Out of order on purpose: clients must sort by index.
        const data = body.input.map((t, index) => ({ object: 'embedding', index, embedding: vectorFor(t, dims) })).reverse();
        res.end(JSON.stringify({ object: 'list', data, model: body.model }));
      } else if (req.url === '/api/embed') {
        res.end(JSON.stringify({ model: body.model, embeddings: body.input.map((t) => vectorFor(t, dims)) }));
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('remote embedding endpoints', () => {
  it('speaks the OpenAI format: probes dims, sends the key, keeps order, normalises', async () => {
    mode = 'ok';
    const p = await remoteProvider({ kind: 'openai', url: `${base}/v1/`, model: 'text-embedding-3-small', apiKey: 'sk-test' });
    expect(p).toMatchObject({ provider: 'openai', model: 'text-embedding-3-small', dims: 4 });
    const out = await p.embed(['a', 'bbbbbbbb']);
    expect(requests.at(-1)).toMatchObject({
      url: '/v1/embeddings',
      auth: 'Bearer sk-test',
      body: { model: 'text-embedding-3-small', input: ['a', 'bbbbbbbb'] },
    });
    const norm = Math.hypot(2, 3, 4, 5);
    expect(Array.from(out[0] as Float32Array)).toEqual([2, 3, 4, 5].map((x) => Math.fround(x / norm)));
    expect(Math.hypot(...(out[1] as Float32Array))).toBeCloseTo(1, 5);
  });

  it('speaks the Ollama format with known dims (no probe)', async () => {
    mode = 'ok';
    const before = requests.length;
    const p = await remoteProvider({ kind: 'ollama', url: base, model: 'nomic-embed-text', dims: 4 });
    expect(requests.length).toBe(before);
    const out = await p.embed(['hello']);
    expect(requests.at(-1)).toMatchObject({ url: '/api/embed', auth: undefined, body: { input: ['hello'] } });
    expect(out).toHaveLength(1);
  });

  it('turns server errors, bad bodies, wrong dimensions and dead servers into clear errors', async () => {
    mode = 'ok';
    const p = await remoteProvider({ kind: 'openai', url: `${base}/v1`, model: 'm' });
    mode = 'error';
    await expect(p.embed(['x'])).rejects.toThrow(/answered 500: model not loaded/);
    mode = 'garbage';
    await expect(p.embed(['x'])).rejects.toThrow(/unexpected body/);
    mode = 'wrong-dims';
    await expect(p.embed(['x', 'y'])).rejects.toThrow(/3-d vectors, expected 4/);
    await expect(remoteProvider({ kind: 'ollama', url: 'http://127.0.0.1:9', model: 'm' })).rejects.toThrow(
      /Cannot reach the embedding endpoint/,
    );
  });
});

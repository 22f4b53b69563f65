import { lookup } from 'node:dns/promises';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEXT_CHARS, fetchText, htmlText, judgeUrl, webFetch } from './web-fetch.js';
import { DEFAULT_WEB_POLICY } from './web-fetch.js';
import { ToolRegistry } from './registry.js';

const servers: Server[] = [];
const hits: string[] = [];

/** A loopback server that records each request and answers by path. */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

async function serve(name: string, answer: (path: string) => Answer) {
  const server = createServer((req, res) => {
    hits.push(`${name}${req.url}`);
    const a = answer(req.url ?? '/');
    res.writeHead(a.status, a.headers);
    res.end(a.body ?? '');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

let first = '';
let second = '';
beforeAll(async () => {
  second = await serve('second', () => ({ status: 200, body: 'secret inside' }));
  first = await serve('first', (path): Answer => {
    if (path === '/page')
      return { status: 200, headers: { 'content-type': 'text/html' }, body: '<h1>Hi</h1><script>x()</script><p>a &amp; b</p>' };
    if (path === '/big') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(5000) };
    if (path === '/long') return { status: 200, headers: { 'content-type': 'text/html' }, body: '<p>word word</p>'.repeat(20_000) };
    if (path === '/slow') return { status: 200 };
    if (path === '/same') return { status: 302, headers: { location: '/page' } };
    if (path === '/to-second') return { status: 302, headers: { location: `${second}/` } };
    if (path === '/to-localhost') return { status: 301, headers: { location: `http://localhost:${new URL(first).port}/page` } };
    if (path === '/to-metadata') return { status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } };
    if (path === '/loop') return { status: 302, headers: { location: '/loop' } };
    return { status: 404 };
  });
});
afterAll(() => servers.forEach((s) => (s.closeAllConnections(), s.close())));

const policy = () => ({ ...DEFAULT_WEB_POLICY, allow: [first] });

describe('web_fetch refuses what it must not reach', () => {
  it('refuses loopback, localhost, metadata, private and odd schemes before connecting', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://localhost:8080/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::127.0.0.1]/',
      'http://[::ffff:0:7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://0.0.0.0/',
      'http://10.0.0.1/',
      'http://2130706433/',
      'http://metadata.google.internal/',
      'file:///etc/passwd',
      'ftp://example.org/',
      'http://user:pw@example.org/',
    ])
      expect(() => judgeUrl(url, []), url).toThrow(/Refusing to fetch/);
    await expect(fetchText(`${second}/`, DEFAULT_WEB_POLICY)).rejects.toThrow(/127\.0\.0\.1 is loopback/);
    expect(hits.filter((h) => h.startsWith('second'))).toEqual([]);
  });

  it('judges the address a name resolves to, in the socket lookup itself', async () => {
    const name = hostname();
    const resolved = await lookup(name).catch(() => undefined);
    if (!resolved) return;
    const port = new URL(second).port;
    await expect(fetchText(`http://${name}:${port}/`, DEFAULT_WEB_POLICY)).rejects.toThrow(/resolves to/);
    expect(hits.filter((h) => h.startsWith('second'))).toEqual([]);
    // The same name, allowed on purpose, connects through the same lookup.
    const allowed = { ...DEFAULT_WEB_POLICY, allow: [`http://${name}:${port}`] };
    await expect(fetchText(`http://${name}:${port}/`, allowed)).resolves.toMatchObject({ status: 200, text: 'secret inside' });
    hits.length = 0;
  });

  it('lets an allowed origin through, and judges every redirect again (the grant covers that origin only)', async () => {
    await expect(fetchText(`${first}/page`, policy())).resolves.toMatchObject({ status: 200, text: 'Hi\na & b' });
    await expect(fetchText(`${first}/same`, policy())).resolves.toMatchObject({ url: `${first}/page` });
    for (const path of ['/to-second', '/to-localhost', '/to-metadata'])
      await expect(fetchText(`${first}${path}`, policy()), path).rejects.toThrow(/Refusing to fetch/);
    expect(hits.filter((h) => h.startsWith('second'))).toEqual([]);
    await expect(fetchText(`${first}/loop`, policy())).rejects.toThrow(/redirected more than 5 times/);
  });

  it('caps the size and the time', async () => {
    const big = await fetchText(`${first}/big`, { ...policy(), maxBytes: 1000 });
    expect(big).toMatchObject({ bytes: 1000, truncated: true });
    expect(big.text).toHaveLength(1000);
    // A page read whole but too long for a model's context: its head, with the length it had.
    const long = await fetchText(`${first}/long`, policy());
    expect(long).toMatchObject({ bytes: 320_000, truncated: true, text_chars: 199_999 });
    expect(long.text.length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
    expect(long.text).toMatch(/^word word\nword/);
    expect(long.text.endsWith('word…')).toBe(true);
    const silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    servers.push(silent);
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const started = Date.now();
    await expect(fetchText(`${url}/`, { ...policy(), allow: [url], timeoutMs: 300 })).rejects.toThrow(/did not answer within 0.3 s/);
    expect(Date.now() - started).toBeLessThan(3000);
    silent.closeAllConnections();
    // A page that trickles past the time limit is refused, not returned cut short as if whole
    // (an HTTP/1.0 body ends when the connection closes, so its end alone says nothing).
    const slow = createNetServer((socket) => {
      socket.write('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n');
      const timer = setInterval(() => socket.write('y'), 50);
      socket.on('close', () => clearInterval(timer));
      socket.on('error', () => clearInterval(timer));
    });
    await new Promise<void>((done) => slow.listen(0, '127.0.0.1', done));
    const trickle = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    await expect(fetchText(`${trickle}/`, { ...policy(), allow: [trickle], timeoutMs: 400 })).rejects.toThrow(
      /did not finish within 0.4 s/,
    );
    slow.close();
  });

  it('runs only after a yes, as a registered tool', async () => {
    const registry = new ToolRegistry([webFetch]);
    const ctx = { workspace: '/nonexistent', home: '/nonexistent', session: 't', web: { allow: [first] } };
    expect(await registry.run('web_fetch', { url: `${first}/page` }, ctx)).toMatchObject({ ok: false, refused: 'unconfirmed' });
    expect(await registry.run('web_fetch', { url: `${first}/page` }, { ...ctx, confirm: async () => true })).toMatchObject({
      ok: true,
      output: { text: 'Hi\na & b' },
    });
  });
});

describe('htmlText', () => {
  it('keeps the words and drops scripts, styles and tags', () => {
    expect(htmlText('<style>p{}</style><p>One&nbsp;&#x41;&#66;</p><br>Two <b>three</b>')).toBe('One AB\nTwo three');
  });
});

/** Connects the official MCP client to the built server, over stdio or HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { BIN, cliEnv } from './cli.js';

export interface Connected {
  client: Client;
  close: () => Promise<void>;
}

export async function connectStdio(home: string, cwd: string): Promise<Connected> {
  const env = cliEnv(home) as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp'], env, cwd, stderr: 'pipe' });
  const client = new Client({ name: 'homunculus-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** Starts `homunculus mcp --http --port 0` and waits for the URL it announces on stderr. */
export async function startHttpServer(
  home: string,
  cwd: string,
): Promise<{ url: string; token: string; child: ChildProcess; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '--port', '0'], {
    env: cliEnv(home),
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((done, fail) => {
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /serving (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (m?.[1]) done(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`mcp --http exited ${code}: ${err}`)));
  });
  const stop = () =>
    new Promise<void>((done) => {
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  return { url, token: readFileSync(join(home, 'server-token'), 'utf8').trim(), child, stop };
}

export async function connectHttp(url: string, token: string): Promise<Connected> {
  const client = new Client({ name: 'homunculus-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return { client, close: () => client.close() };
}

/** Calls a tool and returns its structured result, failing the test on an MCP error result. */
export async function call<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as {
    structuredContent?: unknown;
    isError?: boolean;
    content?: { text?: string }[];
  };
  if (result.isError) throw new Error(`${name} returned an error: ${result.content?.[0]?.text}`);
  const text = JSON.parse(result.content?.[0]?.text ?? 'null');
  if (JSON.stringify(text) !== JSON.stringify(result.structuredContent)) throw new Error(`${name}: text and structuredContent differ`);
  return result.structuredContent as T;
}

/** Calls a tool that must fail and returns the error text. */
export async function callError(client: Client, name: string, args: unknown): Promise<string> {
  try {
    const result = (await client.callTool({ name, arguments: args as Record<string, unknown> })) as {
      isError?: boolean;
      content?: { text?: string }[];
    };
    if (!result.isError) throw new Error(`${name} unexpectedly succeeded: ${JSON.stringify(result)}`);
    return result.content?.[0]?.text ?? '';
  } catch (err) {
    if ((err as Error).message.includes('unexpectedly succeeded')) throw err;
    return (err as Error).message;
  }
}

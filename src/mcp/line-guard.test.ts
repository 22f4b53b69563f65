import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BIN, cliEnv, tempDir } from '../test-support/cli.js';
import { INVALID_REQUEST, MAX_MESSAGE_BYTES, PARSE_ERROR, checkLine, guardedInput } from './line-guard.js';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

async function guard(chunks: (string | Buffer)[]): Promise<{ passed: string; answered: unknown[] }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let answers = '';
  output.on('data', (d: Buffer) => (answers += d.toString()));
  const guarded = guardedInput(input, output);
  let passed = '';
  guarded.on('data', (d: Buffer) => (passed += d.toString()));
  const ended = new Promise((done) => guarded.on('end', done));
  for (const c of chunks) input.write(c);
  input.end();
  await ended;
  return {
    passed,
    answered: answers
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown),
  };
}

describe('the stdio line guard', () => {
  it('passes JSON-RPC requests, notifications and responses, and answers everything else as JSON-RPC says', () => {
    expect(checkLine(INITIALIZE)).toEqual({ pass: true });
    expect(checkLine('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({ pass: true });
    expect(checkLine('{"jsonrpc":"2.0","id":3,"result":{}}')).toEqual({ pass: true });
    expect(checkLine('{"jsonrpc":"2.0","id":3,"method":')).toMatchObject({ pass: false, code: PARSE_ERROR, id: null });
    expect(checkLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({ pass: false, code: INVALID_REQUEST, id: null });
    expect(checkLine('{"jsonrpc":"1.0","id":"a","method":"ping"}')).toMatchObject({ pass: false, code: INVALID_REQUEST, id: 'a' });
    expect(checkLine('{"jsonrpc":"2.0","id":7}')).toMatchObject({ pass: false, code: INVALID_REQUEST, id: 7 });
    expect(checkLine('"hello"')).toMatchObject({ pass: false, code: INVALID_REQUEST });
  });

  it('answers a bad line where it stands, keeps lines split across chunks whole, and refuses an endless line once', async () => {
    const { passed, answered } = await guard([
      'not json\n{"jsonrpc":"2.0",',
      Buffer.from('"method":"ping","id":2}\r\n\n'),
      'x'.repeat(MAX_MESSAGE_BYTES + 10),
      'y'.repeat(100),
      `\n${INITIALIZE}`,
    ]);
    expect(passed).toBe(`{"jsonrpc":"2.0","method":"ping","id":2}\n${INITIALIZE}\n`);
    expect(answered).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: PARSE_ERROR, message: expect.stringMatching(/^Parse error: the line is not JSON/) } },
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: INVALID_REQUEST, message: `Invalid Request: a message is at most ${MAX_MESSAGE_BYTES} bytes.` },
      },
    ]);
  });

  it('makes `mcp` answer a malformed line and go on serving', async () => {
    const home = tempDir();
    try {
      const child = spawn(process.execPath, [BIN, 'mcp'], { env: cliEnv(home.path), cwd: home.path, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      const answered = new Promise<void>((done) =>
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('"id":1,') || out.includes('"id":1}')) done();
        }),
      );
      child.stdin.write(`{"jsonrpc":"2.0","id":5,"method":\n${INITIALIZE}\n`);
      await answered;
      child.kill();
      const lines = out
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { id: unknown; error?: { code: number } });
      expect(lines[0]).toMatchObject({ id: null, error: { code: PARSE_ERROR } });
      expect(lines[1]).toMatchObject({ id: 1, result: { serverInfo: { name: 'homunculus' } } });
    } finally {
      home.cleanup();
    }
  });
});

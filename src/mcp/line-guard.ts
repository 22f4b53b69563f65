/**
 * What stdin carries to the SDK's stdio transport: one JSON-RPC message per line. The SDK
 * drops a line that is not JSON without a word (a client waiting on it hangs) and only logs
 * JSON that is no JSON-RPC message. Here each such line is answered as JSON-RPC says (parse
 * error, invalid request) and never reaches the server; every other line passes unchanged.
 */
import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable, type Writable } from 'node:stream';

/** The largest MCP message read, a stdio line or an HTTP body: messages are small, so more is refused unread. */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;

type Id = string | number | null;

export type LineVerdict = { pass: true } | { pass: false; code: number; message: string; id: Id };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether a line may go to the server, or the error it is answered with. Pure. */
export function checkLine(line: string): LineVerdict {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { pass: false, code: PARSE_ERROR, message: `Parse error: the line is not JSON (${(err as Error).message}).`, id: null };
  }
  const id = isObject(value) && (typeof value.id === 'string' || typeof value.id === 'number') ? value.id : null;
  const fail = (why: string): LineVerdict => ({ pass: false, code: INVALID_REQUEST, message: `Invalid Request: ${why}`, id });
  if (!isObject(value)) return fail('a message is one JSON object with "jsonrpc": "2.0" (batches are not part of MCP).');
  if (value.jsonrpc !== '2.0') return fail('"jsonrpc" must be "2.0".');
  const answer = 'result' in value || 'error' in value;
  if (typeof value.method !== 'string' && !(answer && 'id' in value))
    return fail('a request or notification names its "method"; a response carries the "id" it answers.');
  return { pass: true };
}

const errorLine = (v: Exclude<LineVerdict, { pass: true }>): string =>
  `${JSON.stringify({ jsonrpc: '2.0', id: v.id, error: { code: v.code, message: v.message } })}\n`;

/** `input` with every line the server cannot take answered on `output` and left out. */
export function guardedInput(input: Readable, output: Writable): Readable {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let skipping = false;
  const take = (line: string, passed: string[]): void => {
    const text = line.replace(/\r$/, '');
    if (!text.trim()) return;
    const verdict = checkLine(text);
    if (verdict.pass) passed.push(`${text}\n`);
    else output.write(errorLine(verdict));
  };
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (rest + decoder.write(chunk)).split('\n');
      rest = lines.pop() ?? '';
      const passed: string[] = [];
      for (const line of lines) {
        // The tail of a line refused as too long ends at its newline.
        if (skipping) skipping = false;
        else take(line, passed);
      }
      if (Buffer.byteLength(rest) > MAX_MESSAGE_BYTES) {
        if (!skipping)
          output.write(
            errorLine({
              pass: false,
              code: INVALID_REQUEST,
              message: `Invalid Request: a message is at most ${MAX_MESSAGE_BYTES} bytes.`,
              id: null,
            }),
          );
        skipping = true;
        rest = '';
      }
      done(null, passed.join(''));
    },
    flush(done) {
      const passed: string[] = [];
      if (!skipping) take(rest + decoder.end(), passed);
      done(null, passed.join(''));
    },
  });
  return input.pipe(guard);
}

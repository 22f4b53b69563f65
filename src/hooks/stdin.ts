/** Reading a hook's stdin: bounded in size (MAX_PAYLOAD_BYTES), never blocking on a terminal. */
import { fstatSync, readSync } from 'node:fs';
import { MAX_PAYLOAD_BYTES, type RawPayload } from '../capture/payload.js';

/** Reads a stream to its end, keeping at most `cap` bytes (the rest is drained so the writer never blocks). */
export async function readStream(stream: NodeJS.ReadableStream, cap = MAX_PAYLOAD_BYTES): Promise<RawPayload> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    bytes += buf.length;
    if (kept < cap) {
      const part = buf.length > cap - kept ? buf.subarray(0, cap - kept) : buf;
      chunks.push(part);
      kept += part.length;
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes, truncated: bytes > kept };
}

/**
 * Reads stdin with plain blocking reads (cheaper to start than process.stdin), falling back
 * to the stream when the descriptor is non-blocking. A terminal is not read at all.
 */
export async function readStdin(cap = MAX_PAYLOAD_BYTES): Promise<RawPayload> {
  try {
    if (fstatSync(0).isCharacterDevice()) return { text: '', bytes: 0, truncated: false };
  } catch {
    return { text: '', bytes: 0, truncated: false };
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  let bytes = 0;
  const buf = Buffer.allocUnsafe(256 * 1024);
  try {
    for (;;) {
      const n = readSync(0, buf, 0, buf.length, null);
      if (n === 0) break;
      bytes += n;
      if (kept < cap) {
        const take = Math.min(n, cap - kept);
        chunks.push(Buffer.from(buf.subarray(0, take)));
        kept += take;
      }
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EOF') return { text: Buffer.concat(chunks).toString('utf8'), bytes, truncated: bytes > kept };
    if (code !== 'EAGAIN' || bytes > 0) throw err;
    return readStream(process.stdin, cap);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes, truncated: bytes > kept };
}

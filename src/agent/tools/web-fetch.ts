/**
 * web_fetch: one http(s) page as text, after a person says yes. Every hop, the first and
 * each redirect, is judged again: http or https only, no name for this machine or a
 * metadata service, and every address the name resolves to must be public (net-guard.ts).
 * The check sits in the socket's own DNS lookup, so the address judged is the address
 * connected to (a name cannot resolve to a public address for the check and to 127.0.0.1
 * for the connection). An origin listed in `web.allow` may reach a private address; that
 * grant covers that origin only, never where it redirects. Size and time are capped.
 */
import { lookup as dnsLookup } from 'node:dns';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { z } from 'zod';
import { HomunculusError, UsageError } from '../../core/errors.js';
import { headOf } from '../../core/text.js';
import { addressProblem, hostNameProblem } from '../net-guard.js';
import { defineTool } from './registry.js';

export interface WebPolicy {
  /** Origins (`http://127.0.0.1:8080`) that may reach private addresses; each grant covers that origin only. */
  allow: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
}

export const DEFAULT_WEB_POLICY: WebPolicy = { allow: [], maxBytes: 1_000_000, timeoutMs: 10_000, maxRedirects: 5 };
/** The text a model is given of one page (about 12k tokens): a 1 MB page would fill a local model's context. */
export const MAX_TEXT_CHARS = 50_000;
const FIX = 'Fetch a public http(s) address; to reach a private one on purpose, list its origin in config.json agent.web.allow.';

class Refused extends UsageError {
  constructor(url: string, why: string) {
    super(`Refusing to fetch ${url}: ${why}.`, FIX);
  }
}

/** The hop's URL, refused when its scheme, name or literal address may not be reached. */
export function judgeUrl(raw: string, allowed: readonly string[]): { url: URL; allowPrivate: boolean } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${JSON.stringify(raw.slice(0, 200))} is not a URL.`, 'Give a full address such as https://example.org/page.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Refused(url.href, `only http and https are fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new Refused(url.href, 'credentials in the URL are not sent');
  const allowPrivate = allowed.includes(url.origin);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const problem = allowPrivate ? undefined : (hostNameProblem(host) ?? (/^[\d.]+$|:/.test(host) ? addressProblem(host) : undefined));
  if (problem) throw new Refused(url.href, `${host} is ${problem}`);
  return { url, allowPrivate };
}

/** A DNS lookup that fails when any address of the name may not be reached. */
function guardedLookup(href: string, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 4);
      const bad = allowPrivate ? undefined : addresses.find((a) => addressProblem(a.address));
      if (bad) return callback(new Refused(href, `${hostname} resolves to ${bad.address}, ${addressProblem(bad.address)}`), '', 4);
      const first = addresses[0];
      if (!first) return callback(new HomunculusError('dns', `${hostname} has no address.`), '', 4);
      if (options.all) (callback as unknown as (e: null, a: typeof addresses) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

interface Hop {
  res: IncomingMessage;
}

function open(url: URL, allowPrivate: boolean, signal: AbortSignal): Promise<Hop> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        signal,
        lookup: guardedLookup(url.href, allowPrivate),
        headers: { 'user-agent': 'homunculus-agent', accept: '*/*' },
      },
      (res) => resolve({ res }),
    );
    req.on('error', reject);
    req.end();
  });
}

async function readCapped(res: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      return { body: Buffer.concat(chunks).subarray(0, maxBytes), truncated: true };
    }
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/** An HTML page's readable text: no scripts, styles or tags, entities decoded, blank runs collapsed. Pure. */
export function htmlText(html: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return html
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr)>/gi, '\n')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (m, e: string) =>
      e.startsWith('#')
        ? String.fromCodePoint(Number(e[1] === 'x' || e[1] === 'X' ? `0${e.slice(1)}` : e.slice(1)))
        : (entities[e.toLowerCase()] ?? m),
    )
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/ *\n[\s]*/g, '\n')
    .trim();
}

export async function fetchText(raw: string, policy: WebPolicy) {
  const signal = AbortSignal.timeout(policy.timeoutMs);
  let href = raw;
  for (let hop = 0; hop <= policy.maxRedirects; hop++) {
    const { url, allowPrivate } = judgeUrl(href, policy.allow);
    let res: IncomingMessage;
    try {
      ({ res } = await open(url, allowPrivate, signal));
    } catch (err) {
      if (err instanceof HomunculusError) throw err;
      if (signal.aborted) throw new HomunculusError('timeout', `${url.href} did not answer within ${policy.timeoutMs / 1000} s.`);
      throw new HomunculusError('fetch', `Cannot fetch ${url.href}: ${(err as Error).message}.`);
    }
    const location = res.headers.location;
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
      res.resume();
      href = new URL(location, url).href;
      continue;
    }
    const late = () => new HomunculusError('timeout', `${url.href} did not finish within ${policy.timeoutMs / 1000} s.`);
    const { body, truncated } = await readCapped(res, policy.maxBytes).catch((err: unknown) => {
      throw signal.aborted ? late() : err;
    });
    // A body cut off by the timeout (or a dropped connection) is no whole page, though the stream ended quietly.
    if (!truncated && signal.aborted) throw late();
    if (!truncated && !res.complete)
      throw new HomunculusError('incomplete', `${url.href} closed the connection before the page was whole.`);
    const type = String(res.headers['content-type'] ?? '');
    const textual = type === '' || /^text\/|json|xml|javascript/i.test(type);
    const decoded = body.toString('utf8');
    const full = !textual ? `(${body.length} bytes of ${type}, not text)` : /html/i.test(type) ? htmlText(decoded) : decoded;
    const text = headOf(full, MAX_TEXT_CHARS);
    const cut = text.length < full.length ? { text_chars: full.length } : {};
    return {
      url: url.href,
      status: res.statusCode ?? 0,
      content_type: type,
      text,
      ...cut,
      bytes: body.length,
      truncated: truncated || 'text_chars' in cut,
    };
  }
  throw new HomunculusError('redirects', `${raw} redirected more than ${policy.maxRedirects} times; stopped.`);
}

export const webFetch = defineTool({
  name: 'web_fetch',
  description:
    'Fetch one public http(s) page and return its text (HTML reduced to text; 1 MB read, the first 50,000 characters returned, 10 s). Private, loopback and link-local addresses are refused.',
  input: z.object({ url: z.string().min(1).max(4096) }).strict(),
  trust: 'external',
  confirm: true,
  // The URL's own rules before the yes; its addresses are judged again when it is fetched.
  check: (ctx, input) => void judgeUrl(input.url, ctx.web?.allow ?? DEFAULT_WEB_POLICY.allow),
  run: (ctx, input) => fetchText(input.url, { ...DEFAULT_WEB_POLICY, ...ctx.web }),
});

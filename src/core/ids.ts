import type * as NodeCrypto from 'node:crypto';
import { sha256Hex } from './sha256.js';

// node:crypto is loaded on first use only: hooks hash short strings and must start fast.
let crypto: typeof NodeCrypto | undefined;
const nodeCrypto = (): typeof NodeCrypto => (crypto ??= process.getBuiltinModule('node:crypto'));

/** Below this length the plain-JavaScript digest is faster than loading node:crypto. */
const SHORT_TEXT = 4096;

export function sha256(text: string): string {
  if (text.length < SHORT_TEXT && crypto === undefined) return sha256Hex(text);
  return nodeCrypto().createHash('sha256').update(text).digest('hex');
}

/** A short stable id derived from content, for records that carry no id of their own. */
export function contentId(...parts: readonly (string | number | undefined | null)[]): string {
  return sha256(parts.map((p) => (p === undefined || p === null ? '' : String(p))).join('\u0000')).slice(0, 24);
}

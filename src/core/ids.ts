import { createHash, randomUUID } from 'node:crypto';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A short stable id derived from content, for records that carry no id of their own. */
export function contentId(...parts: readonly (string | number | undefined | null)[]): string {
  return sha256(parts.map((p) => (p === undefined || p === null ? '' : String(p))).join('\u0000')).slice(0, 24);
}

export function newId(): string {
  return randomUUID();
}

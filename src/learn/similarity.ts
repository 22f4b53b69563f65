/**
 * The find_duplicates measure: token overlap and prefix matching between two pattern
 * keys of the same prefix. Tokens are the key's steps (split on ->, +, =, :, commas, spaces),
 * compared as multisets (a sequence's in order) so "lint->fix" and "lint->fix->lint", and
 * "lint->test" and "test->lint", stay apart; prefix matching
 * only compares keys with as many steps. Pure.
 */

export const DUPLICATE_THRESHOLD = 0.75;

function split(key: string): { prefix: string; body: string } {
  const colon = key.indexOf(':');
  return colon > 0 ? { prefix: key.slice(0, colon), body: key.slice(colon + 1) } : { prefix: '', body: key };
}

export function keyTokens(body: string): string[] {
  return body
    .toLowerCase()
    .split(/\s*(?:->|=>|[+,;=|:]|\s)\s*/)
    .map((t) => t.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter(Boolean);
}

const squash = (body: string): string => body.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

function multisetJaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const t of a) counts.set(t, (counts.get(t) ?? 0) + 1);
  let shared = 0;
  for (const t of b) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      shared++;
      counts.set(t, n - 1);
    }
  }
  return shared / (a.length + b.length - shared);
}

/** Steps shared in the same order (their longest common subsequence) over all steps. */
function orderedJaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  let row = new Array<number>(b.length + 1).fill(0);
  for (const t of a) {
    const next = [0];
    for (let j = 0; j < b.length; j++) next.push(t === b[j] ? (row[j] as number) + 1 : Math.max(row[j + 1] as number, next[j] as number));
    row = next;
  }
  const shared = row[b.length] as number;
  return shared / (a.length + b.length - shared);
}

/** 0..1; keys with different prefixes (seq: vs pref:) are never duplicates. */
export function keySimilarity(a: string, b: string): number {
  const x = split(a);
  const y = split(b);
  if (x.prefix !== y.prefix) return 0;
  const sx = squash(x.body);
  const sy = squash(y.body);
  if (sx === sy) return 1;
  const tx = keyTokens(x.body);
  const ty = keyTokens(y.body);
  // A sequence's steps count in order: "lint->test" is not "test->lint".
  const overlap = x.prefix === 'seq' ? orderedJaccard(tx, ty) : multisetJaccard(tx, ty);
  // Prefix matching catches drift inside a token ("missing-import" / "missing-imports"), not an added step.
  const [short, long] = sx.length <= sy.length ? [sx, sy] : [sy, sx];
  const prefix = tx.length === ty.length && short.length > 0 && long.startsWith(short) ? short.length / long.length : 0;
  return Math.round(Math.max(overlap, prefix) * 1000) / 1000;
}

export interface DuplicatePair {
  pattern_a: string;
  pattern_b: string;
  similarity: number;
}

/** Every pair at or above the threshold, most similar first. */
export function duplicatePairs(keys: readonly string[], threshold = DUPLICATE_THRESHOLD): DuplicatePair[] {
  const pairs: DuplicatePair[] = [];
  for (let i = 0; i < keys.length; i++) {
    for (let j = i + 1; j < keys.length; j++) {
      const similarity = keySimilarity(keys[i] as string, keys[j] as string);
      if (similarity >= threshold) pairs.push({ pattern_a: keys[i] as string, pattern_b: keys[j] as string, similarity });
    }
  }
  return pairs.sort((p, q) => q.similarity - p.similarity || p.pattern_a.localeCompare(q.pattern_a));
}

/**
 * The find_duplicates measure: token overlap and prefix matching between two pattern
 * keys of the same prefix. Tokens are the key's steps (split on ->, +, =, :, commas, spaces),
 * compared as multisets (a sequence's in order) so "lint->fix" and "lint->fix->lint", and
 * "lint->test" and "test->lint", stay apart; prefix matching
 * only compares keys with as many steps. Keys that name different numbers ("python=3.1" and
 * "python=3.12", "port=80" and "port=8080") are different values, never one key. Pure.
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

/** What one key is compared by, worked out once per key: a store can hold thousands. */
interface KeyShape {
  prefix: string;
  /** Its numbers in order: keys that differ in them are never duplicates. */
  numbers: string;
  squashed: string;
  tokens: string[];
}

function shapeOf(key: string): KeyShape {
  const { prefix, body } = split(key);
  return { prefix, numbers: (body.match(/\d+/g) ?? []).join('.'), squashed: squash(body), tokens: keyTokens(body) };
}

function shapeSimilarity(x: KeyShape, y: KeyShape): number {
  if (x.prefix !== y.prefix || x.numbers !== y.numbers) return 0;
  if (x.squashed === y.squashed) return 1;
  // A sequence's steps count in order: "lint->test" is not "test->lint".
  const overlap = x.prefix === 'seq' ? orderedJaccard(x.tokens, y.tokens) : multisetJaccard(x.tokens, y.tokens);
  // Prefix matching catches drift inside a token ("missing-import" / "missing-imports"), not an added step.
  const [short, long] = x.squashed.length <= y.squashed.length ? [x.squashed, y.squashed] : [y.squashed, x.squashed];
  const prefix = x.tokens.length === y.tokens.length && short.length > 0 && long.startsWith(short) ? short.length / long.length : 0;
  return Math.round(Math.max(overlap, prefix) * 1000) / 1000;
}

/** 0..1; keys with different prefixes (seq: vs pref:) or different numbers are never duplicates. */
export function keySimilarity(a: string, b: string): number {
  return shapeSimilarity(shapeOf(a), shapeOf(b));
}

export interface DuplicatePair {
  pattern_a: string;
  pattern_b: string;
  similarity: number;
}

/** Every pair at or above the threshold, most similar first; only keys of one prefix and the same numbers are compared. */
export function duplicatePairs(keys: readonly string[], threshold = DUPLICATE_THRESHOLD): DuplicatePair[] {
  const groups = new Map<string, { key: string; shape: KeyShape }[]>();
  for (const key of keys) {
    const shape = shapeOf(key);
    const group = `${shape.prefix}\u0000${shape.numbers}`;
    const members = groups.get(group) ?? [];
    members.push({ key, shape });
    groups.set(group, members);
  }
  const pairs: DuplicatePair[] = [];
  for (const group of groups.values()) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const [a, b] = [group[i], group[j]] as [{ key: string; shape: KeyShape }, { key: string; shape: KeyShape }];
        const similarity = shapeSimilarity(a.shape, b.shape);
        if (similarity >= threshold) pairs.push({ pattern_a: a.key, pattern_b: b.key, similarity });
      }
    }
  }
  return pairs.sort((p, q) => q.similarity - p.similarity || p.pattern_a.localeCompare(q.pattern_a));
}

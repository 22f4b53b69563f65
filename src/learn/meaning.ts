/**
 * Requests grouped by meaning: "let's respond to the PR comments", "can you address the PR
 * comment?" and "look at the PR review comments" are one request in three wordings, which the
 * words-only key (verb and object) counts apart. Sentences whose vectors (the bundled sentence
 * encoder) are all close to one another form a group; a group that spans enough sessions is
 * one request. Pure: the vectors are given.
 */
import { dot } from '../embed/vector-math.js';

/**
 * Cosine at or above which two requests may say the same thing. The bundled encoder alone is not
 * enough: on the dev sessions, at 0.75 it put "add a test for the last commit" with "review PR
 * 284"; so the two must also share their verb or their object (mine/requests.ts keys: verb-object).
 */
export const SAME_MEANING = 0.75;

/** The verb and the object a request key names (`pref:cli/request=review-chang`). */
function askOf(key: string): { verb: string; object: string } | undefined {
  const m = /request=([a-z]+)-(.+)$/.exec(key);
  return m ? { verb: m[1] as string, object: m[2] as string } : undefined;
}

/** Close in meaning, and the same verb or the same object: "check the changes" and "review the changes". */
function sameAsk(a: Said, b: Said, threshold: number): boolean {
  const x = askOf(a.key);
  const y = askOf(b.key);
  const shareWords = !!x && !!y && (x.verb === y.verb || x.object === y.object);
  return shareWords && dot(a.vector, b.vector) >= threshold;
}

export interface Said {
  key: string;
  session: string;
  project: string;
  text: string;
  vector: Float32Array;
}

/**
 * Groups in which every two sentences are the same ask (complete link, so one sentence cannot
 * chain two unrelated asks; two sentences of one key are one ask by their words), within one project, that hold at least two keys and `minSessions`
 * sessions: the requests the words kept apart.
 */
export function meaningGroups(items: readonly Said[], minSessions: number, threshold = SAME_MEANING): Said[][] {
  const groups: Said[][] = [];
  for (const item of items) {
    const home = groups.find((g) => g[0]?.project === item.project && g.every((o) => o.key === item.key || sameAsk(o, item, threshold)));
    if (home) home.push(item);
    else groups.push([item]);
  }
  return groups.filter((g) => new Set(g.map((s) => s.key)).size >= 2 && new Set(g.map((s) => s.session)).size >= minSessions);
}

/** The key a group is counted under: an instinct's when one is, else the key seen in most sessions (then the first). */
export function groupKey(group: readonly Said[], isInstinct: (key: string) => boolean): string {
  const sessions = new Map<string, Set<string>>();
  for (const s of group) sessions.set(s.key, (sessions.get(s.key) ?? new Set()).add(s.session));
  const keys = [...sessions.keys()].sort((a, b) => (sessions.get(b)?.size ?? 0) - (sessions.get(a)?.size ?? 0) || a.localeCompare(b));
  return keys.find(isInstinct) ?? (keys[0] as string);
}

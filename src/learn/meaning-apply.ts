/**
 * After learning, requests are counted by meaning as well as by words: the sentences users
 * asked in (their sightings' evidence) are embedded, groups of one meaning across sessions
 * (meaning.ts) are counted under one key, the others aliased to it so later sessions add up,
 * and a group that reaches the instinct threshold becomes an instinct worded from its own
 * sentences. Needs an encoder; without one, requests are counted by their words only.
 */
import { parseJsonObject } from '../store/json.js';
import type { Sighting } from '../store/learning.js';
import type { Store } from '../store/store.js';
import { INSTINCT_MIN_SESSIONS, examplesFrom, instinctFrom } from './apply.js';
import { lastForgotten } from './corrections.js';
import { qualityGate } from './gate.js';
import { type Said, groupKey, meaningGroups } from './meaning.js';
import { askedIn, requestCandidate, requestOf, withRequests } from './mine/requests.js';

export type Embed = (texts: string[]) => Promise<Float32Array[]>;

export interface MeaningResult {
  /** Request sentences compared. */
  compared: number;
  /** Keys now counted under another, by the key they went into. */
  merged: { into: string; keys: string[] }[];
  /** Instincts the groups made. */
  created: string[];
}

const BATCH = 32;

/** The sentence a request sighting quotes. */
function sentenceOf(s: Sighting): string | undefined {
  const evidence = parseJsonObject(s.detail).evidence;
  return Array.isArray(evidence) && typeof evidence[0] === 'string' ? askedIn(evidence[0]) : undefined;
}

/** The request sightings with the sentence each quotes. */
function saidSentences(store: Store): Omit<Said, 'vector'>[] {
  return store.learning.listSightingsLike('pattern', 'pref:%request=%').flatMap((s) => {
    const text = sentenceOf(s);
    return text ? [{ key: s.key, session: s.session_id, project: s.project, text }] : [];
  });
}

/** The group's instinct, worded from its key's first sentence and quoting what every session asked (after `since`, when given). */
function createFromGroup(store: Store, key: string, since = ''): string | undefined {
  const sightings = store.learning.listSightings('pattern', key).filter((s) => s.ts > since);
  const first = sightings[0];
  const sentence = first ? sentenceOf(first) : undefined;
  const request = sentence ? requestOf(sentence) : undefined;
  if (!first || !sentence || !request) return undefined;
  const projectName = store.sessions.get(first.session_id)?.project_name ?? '';
  const examples = examplesFrom(store, key);
  const c = withRequests(
    { ...requestCandidate({ project: first.project, projectName, sessionId: first.session_id, ts: first.ts }, sentence, request), key },
    examples,
  );
  if (!qualityGate(c).pass) return undefined;
  // One sighting per session: their count is the sessions, the last one the latest.
  const sessions = sightings.length;
  const last = sightings.at(-1)?.ts ?? first.ts;
  instinctFrom(store, { ...c, ts: last }, key, { miner: c.miner, sessions, examples, grouped: 'meaning', ...(c.facts ?? {}) }, sessions);
  return key;
}

/**
 * A group that holds a request the user forgot (corrections.ts) counts only the sessions that
 * asked after the forgetting: asks in other words from before it never bring it back.
 */
function afterForgetting(store: Store, group: readonly Said[]): { since: string; sessions: number } | undefined {
  const keys = [...new Set(group.map((s) => s.key))];
  const since = lastForgotten(store, keys);
  if (since === undefined) return undefined;
  const later = keys.flatMap((k) => store.learning.listSightings('pattern', k)).filter((s) => s.ts > since);
  return { since, sessions: new Set(later.map((s) => s.session_id)).size };
}

export async function groupRequestsByMeaning(store: Store, embed: Embed): Promise<MeaningResult> {
  const said = saidSentences(store);
  const vectors: Float32Array[] = [];
  for (let i = 0; i < said.length; i += BATCH) vectors.push(...(await embed(said.slice(i, i + BATCH).map((s) => s.text))));
  const items: Said[] = said.map((s, i) => ({ ...s, vector: vectors[i] as Float32Array }));
  const result: MeaningResult = { compared: items.length, merged: [], created: [] };
  const now = store.clock.now().toISOString();
  store.transaction(() => {
    for (const group of meaningGroups(items, INSTINCT_MIN_SESSIONS)) {
      const forgotten = afterForgetting(store, group);
      if (forgotten && forgotten.sessions < INSTINCT_MIN_SESSIONS) continue;
      const into = groupKey(group, (k) => store.instincts.get(k) !== undefined);
      const keys = [...new Set(group.map((s) => s.key))].filter((k) => k !== into && store.instincts.get(k) === undefined);
      if (keys.length === 0) continue;
      for (const k of keys) {
        store.learning.renameSightings(k, into);
        store.instincts.setAlias(k, into, now);
      }
      result.merged.push({ into, keys });
      if (store.instincts.get(into) || store.learning.countSightings('pattern', into) < INSTINCT_MIN_SESSIONS) continue;
      const created = createFromGroup(store, into, forgotten?.since);
      if (created) result.created.push(created);
    }
  });
  return result;
}

/**
 * Applies one session's candidates to the store (the caller holds the transaction): quality
 * gate, dedup against existing instincts, the per-session tally, instinct creation at 3
 * sessions (0.5), reinforcement, episodes for notable patterns below the threshold, and
 * contradictions (3 contradicting sessions cost 0.10).
 */
import { parseKey } from '../core/domain.js';
import { redact } from '../core/redact.js';
import { round, counted } from '../core/text.js';
import { type InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import { type Store, withClock } from '../store/store.js';
import { fixedClock } from '../core/clock.js';
import { CONTRADICTION_MIN_OBSERVATIONS, EPISODE_PROMOTION_CONFIDENCE, applyContradiction, foldDecay } from './confidence.js';
import { forgetRow, forgottenBefore } from './corrections.js';
import { restates } from './documented.js';
import { qualityGate } from './gate.js';
import { observe } from './instincts.js';
import { type Candidate, quotedIn, redactCandidate } from './mine/candidate.js';
import { KEEP_TOGETHER_RATIO, MIN_TOGETHER_RATIO, contradictedPairs, withCoeditReasons } from './mine/coedits.js';
import { OTHER_STYLE_KEY, STYLE_MIN_SHARE } from './mine/commits.js';
import { withEndpoints } from './mine/endpoints.js';
import { withRequests } from './mine/requests.js';
import { withServices } from './mine/services.js';
import { withStructure } from './mine/structure.js';
import type { SessionSignal } from './mine/signals.js';
import { DUPLICATE_THRESHOLD, keySimilarity } from './similarity.js';

/** Patterns observed three or more times (here: in three sessions) become instincts. */
export const INSTINCT_MIN_SESSIONS = 3;
const MAX_EXAMPLES = 5;

export interface SessionChanges {
  created: { pattern: string; category: string; confidence: number; evidence: number; from: 'tally' | 'episode'; title: string }[];
  reinforced: { pattern: string; confidence: number; evidence: number }[];
  episodes: { pattern: string; title: string; occurrences: number }[];
  rejected: { pattern: string; miner: string; reasons: string[] }[];
  /** Held back or taken back, with why; `trigger` says in words which rule it was, when one stood. */
  held: { pattern: string; reason: string; trigger?: string }[];
  contradictions: { pattern: string; before: number; after: number }[];
  signals: number;
}

interface SessionInput {
  sessionId: string;
  source: string;
  project: string;
  candidates: readonly Candidate[];
  signals: readonly SessionSignal[];
  editedFiles: readonly string[];
  commitStyle?: 'conventional' | 'other';
  /** Whether the session is over (co-edit contradictions need the whole session). */
  ended: boolean;
  /** The project's CLAUDE.md and AGENTS.md as they are now, when its folder is on this machine. */
  instructions?: string;
}

const emptyChanges = (): SessionChanges => ({
  created: [],
  reinforced: [],
  episodes: [],
  rejected: [],
  held: [],
  contradictions: [],
  signals: 0,
});

/** The store as of `iso` (never before a record's last sighting, never after now), so history keeps real times. */
function storeAt(store: Store, iso: string, notBefore?: string): Store {
  const now = store.clock.now();
  let at = Date.parse(iso);
  if (!Number.isFinite(at) || at > now.getTime()) at = now.getTime();
  if (notBefore && Date.parse(notBefore) > at) at = Date.parse(notBefore);
  return withClock(store, fixedClock(new Date(at)));
}

function keyProblem(key: string): string | undefined {
  try {
    parseKey(key);
    return undefined;
  } catch (err) {
    return `invalid key: ${(err as Error).message}`;
  }
}

function similarInstinct(rows: readonly InstinctRow[], c: Candidate): InstinctRow | undefined {
  let best: InstinctRow | undefined;
  let bestScore = 0;
  for (const row of rows) {
    if (row.category !== c.category) continue;
    const s = keySimilarity(row.key, c.key);
    if (s >= DUPLICATE_THRESHOLD && s > bestScore) {
      best = row;
      bestScore = s;
    }
  }
  return best;
}

export function examplesFrom(store: Store, key: string): string[] {
  const lines: string[] = [];
  for (const s of store.learning.listSightings('pattern', key)) {
    const detail = parseJsonObject(s.detail);
    const evidence = Array.isArray(detail.evidence) ? (detail.evidence as unknown[]).filter((e): e is string => typeof e === 'string') : [];
    // Sightings recorded before the redaction rules grew are redacted as they are read.
    if (evidence[0]) lines.push(`${s.ts.slice(0, 10)}: ${redact(evidence[0])}`);
  }
  return lines.slice(-MAX_EXAMPLES);
}

/** A rule people stated (a refused call) reads with their own words from every session that backs it. */
function withQuotes(c: Candidate, examples: readonly string[]): Candidate {
  if (c.miner !== 'rejection') return c;
  const quotes = quotedIn(examples);
  return quotes.length ? { ...c, action: `${c.action} They said: ${quotes.map((q) => `"${q}"`).join('; ')}.` } : c;
}

/** An instinct made of what several sessions listed names the items most of them share. */
const composed = (c: Candidate, examples: readonly string[]): Candidate =>
  withCoeditReasons(
    withRequests(withStructure(withServices(withEndpoints(withQuotes(c, examples), examples), examples), examples), examples),
    examples,
  );

function sessionsOf(store: Store, key: string): string[] {
  return store.learning.listSightings('pattern', key).map((s) => s.session_id);
}

/** A commit style is the project's when most of its sessions that commit follow it (several people may share it). */
function commitStyleHolds(store: Store, c: Pick<Candidate, 'miner' | 'project'>, following: number): string | undefined {
  if (c.miner !== 'commit-style') return undefined;
  const committing = following + store.learning.countSightings('pattern', OTHER_STYLE_KEY, c.project);
  return following < committing * STYLE_MIN_SHARE
    ? `followed in ${following} of ${committing} sessions that commit here (needs ${STYLE_MIN_SHARE * 100}%)`
    : undefined;
}

/** Co-edit pairs must be edited together in most sessions that touch either file (`bar`: to be learned; a lower one to stay). */
function coeditHolds(
  store: Store,
  c: Pick<Candidate, 'miner' | 'project' | 'facts'>,
  together: number,
  bar = MIN_TOGETHER_RATIO,
): string | undefined {
  const files = c.facts?.files;
  if (c.miner !== 'co-edit' || !Array.isArray(files)) return undefined;
  const [a, b] = files as [string, string];
  const either =
    store.learning.countSightings('file', a, c.project) +
    store.learning.countSightings('file', b, c.project) -
    store.learning.countCoSightings('file', a, b, c.project);
  const ratio = either > 0 ? together / either : 0;
  return ratio < bar ? `edited together in ${together} of ${either} sessions touching either file (needs ${bar * 100}%)` : undefined;
}

function episodeBody(c: Candidate, examples: readonly string[]): string {
  return [c.explain, '', `When: ${c.trigger}`, `Then: ${c.action}`, '', ...examples.map((e) => `- ${e}`)].join('\n');
}

function recordContradiction(store: Store, key: string, sessionId: string, ts: string, changes: SessionChanges): void {
  const target = store.instincts.resolveAlias(key);
  const row = store.instincts.get(target);
  if (!row) return;
  if (!store.learning.addSighting({ kind: 'contradiction', key: target, project: '', session_id: sessionId, ts, detail: '{}' })) return;
  const count = store.learning.countSightings('contradiction', target);
  if (count < CONTRADICTION_MIN_OBSERVATIONS) return;
  const now = store.clock.now();
  const state = { confidence: row.confidence, lastSeen: row.last_seen, foldedPeriods: row.folded_periods };
  const before = foldDecay(state, now).confidence;
  const next = applyContradiction(state, count, now);
  store.instincts.update(row.id, { confidence: next.confidence, folded_periods: next.foldedPeriods });
  store.instincts.addEvent({
    instinct_id: row.id,
    ts: now.toISOString(),
    kind: 'contradiction',
    delta_evidence: 0,
    delta_confidence: round(next.confidence - before, 3),
    source: 'observer',
    project: row.project,
    detail: `${count} contradicting sessions`,
  });
  store.learning.deleteSightings('contradiction', target);
  changes.contradictions.push({ pattern: target, before, after: next.confidence });
}

/** How a held reason starts when learning took back what it had learned (the sync report lists those). */
export const TAKEN_BACK = 'forgotten: ';

/**
 * The co-edit gate on all data, at every session: a pair that no longer changes together in
 * half the sessions touching either file is forgotten, its log kept with the reason, unless the
 * user vouched for it (promoted it, or said it is right).
 */
function demoteCoedits(store: Store, project: string, changes: SessionChanges): void {
  for (const pair of coeditPairs(store, project)) {
    const [a, b] = pair.files;
    const together = store.learning.countCoSightings('file', a, b, project);
    const reason = coeditHolds(store, { miner: 'co-edit', project, facts: { files: pair.files } }, together, KEEP_TOGETHER_RATIO);
    const row = reason ? store.instincts.get(pair.key) : undefined;
    if (!row || !reason || vouchedFor(store, row)) continue;
    // Said as what happens: the instinct is forgotten (its history kept), not lowered.
    const why = `${TAKEN_BACK}now ${reason} to stay`;
    forgetRow(store, row, 'observer', why);
    changes.held.push({ pattern: pair.key, reason: why, trigger: row.trigger });
  }
}

const vouchedFor = (store: Store, row: InstinctRow): boolean =>
  row.promoted_at !== null || store.instincts.provenance([row.id]).get(row.id)?.verdict === 'strong';

function coeditPairs(store: Store, project: string): { key: string; files: [string, string] }[] {
  const pairs: { key: string; files: [string, string] }[] = [];
  for (const row of store.instincts.list({ category: 'combo', project })) {
    const meta = parseJsonObject(row.metadata);
    const files = meta.files;
    if (meta.miner === 'co-edit' && Array.isArray(files) && files.length === 2)
      pairs.push({ key: row.key, files: [String(files[0]), String(files[1])] });
  }
  return pairs;
}

/** The session's preference signals and the files it edited, for later sessions to count. */
function recordSessionFacts(store: Store, input: SessionInput, lastTs: string, changes: SessionChanges): void {
  for (const s of input.signals) {
    const signal = { session_id: s.sessionId, ts: s.ts, type: s.type, signal: s.signal, raw: s.raw, project: input.project };
    if (store.learning.addSignal(signal)) changes.signals++;
  }
  const ts = lastTs || store.clock.now().toISOString();
  if (input.commitStyle === 'other') {
    store.learning.addSighting({
      kind: 'pattern',
      key: OTHER_STYLE_KEY,
      project: input.project,
      session_id: input.sessionId,
      ts,
      detail: '{}',
    });
  }
  for (const file of input.editedFiles) {
    store.learning.addSighting({ kind: 'file', key: file, project: input.project, session_id: input.sessionId, ts, detail: '{}' });
  }
}

/** The instinct a candidate seen in `sessions` sessions becomes, dated by the candidate's last sighting and first seen at its first. */
export function instinctFrom(store: Store, c: Candidate, key: string, meta: Record<string, unknown>, sessions: number, source = '') {
  return observe(storeAt(store, c.ts), {
    pattern: key,
    category: c.category,
    source,
    project: c.project,
    explain: c.explain,
    trigger: c.trigger,
    action: c.action,
    title: c.title,
    domain: c.domain,
    metadata: meta,
    occurrences: sessions,
    initialScore: EPISODE_PROMOTION_CONFIDENCE,
    // Its age counts from the first session that showed it, not from the third, which made it an instinct.
    firstSeen: store.learning.listSightings('pattern', key)[0]?.ts,
  });
}

/** A candidate seen in enough sessions becomes an instinct (from its episode, if it had one). */
function createInstinct(
  store: Store,
  input: SessionInput,
  c: Candidate,
  key: string,
  meta: Record<string, unknown>,
  sessions: number,
): SessionChanges['created'][number] {
  const fromEpisode = store.episodes.get(key) !== undefined;
  const result = instinctFrom(store, c, key, meta, sessions, input.source);
  store.episodes.deleteByPattern(key);
  return {
    pattern: result.pattern,
    category: c.category,
    confidence: result.confidence,
    evidence: result.evidence,
    from: fromEpisode ? 'episode' : 'tally',
    title: c.title,
  };
}

/** A notable candidate below the instinct threshold is kept as an episode, its first title and date kept. */
function noteEpisode(
  store: Store,
  c: Candidate,
  key: string,
  examples: readonly string[],
  sessions: number,
): SessionChanges['episodes'][number] {
  const prior = store.episodes.get(key);
  const tags = [...new Set([c.domain, ...c.tags])];
  const files = c.subjects.filter((s) => /\/|\.\w{1,5}$/.test(s) && !s.includes(' '));
  store.episodes.upsert({
    pattern: key,
    title: prior?.title ?? c.title,
    body: episodeBody(c, examples),
    project: c.project,
    tags: JSON.stringify(tags),
    occurrences: sessions,
    session_ids: JSON.stringify(sessionsOf(store, key)),
    files: JSON.stringify(files),
    date: prior?.date ?? c.ts,
    updated_at: c.ts,
  });
  return { pattern: key, title: prior?.title ?? c.title, occurrences: sessions };
}

/** One candidate: gated, counted once per session, then reinforcing, creating, held back or noted. */
function applyCandidate(
  store: Store,
  input: SessionInput,
  c: Candidate,
  existingRows: readonly InstinctRow[],
  changes: SessionChanges,
): void {
  const invalid = keyProblem(c.key);
  const gate = invalid ? { pass: false, reasons: [invalid] } : qualityGate(c);
  if (!gate.pass) {
    changes.rejected.push({ pattern: c.key, miner: c.miner, reasons: gate.reasons });
    return;
  }
  const aliased = store.instincts.resolveAlias(c.key);
  const existing = store.instincts.get(aliased) ?? similarInstinct(existingRows, c);
  const key = existing?.key ?? aliased;
  // What was seen before the user forgot it never counts again (corrections.ts).
  const forgotten = forgottenBefore(store, aliased, c.ts) ?? forgottenBefore(store, key, c.ts);
  if (forgotten) {
    changes.held.push({ pattern: aliased, reason: `forgotten by hand on ${forgotten.slice(0, 10)}: only later sessions count` });
    return;
  }
  const added = store.learning.addSighting({
    kind: 'pattern',
    key,
    // Where it was seen, even for a pattern filed for every project: one said in a single project belongs to that project.
    project: c.project || input.project,
    session_id: input.sessionId,
    ts: c.ts,
    detail: JSON.stringify({ evidence: c.evidence.slice(0, 3), miner: c.miner }),
  });
  if (!added) return;
  for (const k of c.contradicts ?? []) recordContradiction(store, k, input.sessionId, c.ts, changes);
  const sessions = store.learning.countSightings('pattern', key);
  const meta = {
    miner: c.miner,
    sessions,
    examples: examplesFrom(store, key),
    ...(c.facts ?? {}),
    ...(input.instructions !== undefined ? { documented: restates(c, input.instructions) } : {}),
  };
  if (existing) {
    const at = storeAt(store, c.ts, existing.last_seen);
    const result = observe(at, { pattern: existing.key, source: input.source, project: c.project, metadata: meta });
    changes.reinforced.push({ pattern: result.pattern, confidence: result.confidence, evidence: result.evidence });
    return;
  }
  const held = sessions >= INSTINCT_MIN_SESSIONS ? (coeditHolds(store, c, sessions) ?? commitStyleHolds(store, c, sessions)) : undefined;
  if (sessions >= INSTINCT_MIN_SESSIONS && !held) {
    changes.created.push(createInstinct(store, input, composed(c, meta.examples), key, meta, sessions));
    return;
  }
  if (held) changes.held.push({ pattern: key, reason: held });
  if (c.notable) changes.episodes.push(noteEpisode(store, c, key, meta.examples, sessions));
}

export function applySession(store: Store, input: SessionInput): SessionChanges {
  const changes = emptyChanges();
  const lastTs = input.candidates.reduce((m, c) => (c.ts > m ? c.ts : m), '');
  recordSessionFacts(store, input, lastTs, changes);
  const existingRows = store.instincts.list();
  for (const c of input.candidates) applyCandidate(store, input, redactCandidate(c), existingRows, changes);
  demoteCoedits(store, input.project, changes);
  if (input.ended) {
    const contradicted = contradictedPairs(coeditPairs(store, input.project), input.editedFiles);
    for (const key of contradicted) recordContradiction(store, key, input.sessionId, lastTs || store.clock.now().toISOString(), changes);
  }
  const summary = summaryLine(changes);
  if (summary) store.sessions.appendSummary(input.sessionId, summary);
  return changes;
}

const names = (titles: readonly string[]): string => {
  const shown = titles.slice(0, 3).map((t) => `"${t}"`);
  const more = titles.length > shown.length ? ` and ${titles.length - shown.length} more` : '';
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}${more}` : `${shown[0] ?? ''}${more}`;
};

/** "Learned "x". Reinforced 4 instincts." — what the observer adds to the session summary, in plain words. */
function summaryLine(changes: SessionChanges): string {
  const parts: string[] = [];
  if (changes.created.length) parts.push(`Learned ${names(changes.created.map((c) => c.title || c.pattern))}.`);
  const n = changes.reinforced.length;
  if (n) parts.push(`Reinforced ${counted(n, 'instinct')}.`);
  if (changes.episodes.length) parts.push(`Noted ${names(changes.episodes.map((e) => e.title))}.`);
  return parts.join(' ');
}

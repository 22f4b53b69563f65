/** The instinct lifecycle on the store: observe, feedback, alias, consolidate, decay. */
import {
  CATEGORIES,
  type Category,
  DEFAULT_DOMAIN_BY_CATEGORY,
  DOMAINS,
  type Domain,
  type Feedback,
  type Level,
  parseChoice,
  parseKey,
} from '../core/domain.js';
import { NotFoundError, UsageError } from '../core/errors.js';
import { round, truncate } from '../core/text.js';
import { type InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import type { Store } from '../store/store.js';
import { type ScoreState, applyFeedback, foldDecay, initialConfidence, reinforce } from './confidence.js';
import { LEVEL_BY_RANK, levelFor, promotedLevel } from './levels.js';
import { reportedByAgent } from './records.js';

export const MAX_EXPLAIN_LENGTH = 2000;
const MAX_TEXT_LENGTH = 4000;

interface ObserveInput {
  pattern: string;
  category?: Category;
  source?: string;
  project?: string;
  explain?: string;
  trigger?: string;
  action?: string;
  title?: string;
  domain?: Domain;
  metadata?: Record<string, unknown>;
  /** How many occurrences this call records (default 1). */
  occurrences?: number;
  /** Starting score for a new instinct; defaults to the evidence-strength rule. */
  initialScore?: number;
  /** Stated by an import, not observed here: logged as such, so it is never local evidence. */
  imported?: boolean;
  /** When a new instinct was first observed, if before now (learning creates one at its third session). */
  firstSeen?: string;
}

interface ObserveResult {
  pattern: string;
  evidence: number;
  level: Level;
  created: boolean;
  confidence: number;
  aliased_from?: string;
}

const stateOf = (row: InstinctRow): ScoreState => ({
  confidence: row.confidence,
  lastSeen: row.last_seen,
  foldedPeriods: row.folded_periods,
});

function cleanText(value: string | undefined, max: number): string | undefined {
  if (value === undefined) return undefined;
  return truncate(value.replaceAll('\u0000', '').trim(), max);
}

/** An observation's input, checked: the parsed key, the count and the text, or a UsageError saying the fix. */
function checked(input: ObserveInput) {
  const parsed = parseKey(input.pattern);
  const occurrences = input.occurrences ?? 1;
  if (!Number.isInteger(occurrences) || occurrences < 1 || occurrences > 1_000_000) {
    throw new UsageError(`Invalid occurrence count: ${occurrences}.`, 'Use a whole number of at least 1.');
  }
  const domain = input.domain === undefined ? undefined : parseChoice('domain', input.domain, DOMAINS);
  const requestedCategory = input.category ? parseChoice('category', input.category, CATEGORIES) : undefined;
  // The prefix names the category: a fix: key stored as a preference would read as one everywhere.
  if (requestedCategory && requestedCategory !== parsed.category) {
    throw new UsageError(
      `The category ${requestedCategory} contradicts the key "${parsed.key}": its prefix ${parsed.prefix}: means ${parsed.category}.`,
      `Leave the category out, or use the prefix of ${requestedCategory}.`,
    );
  }
  const explain = cleanText(input.explain, MAX_EXPLAIN_LENGTH);
  return { parsed, occurrences, domain, explain, project: input.project ?? '', source: input.source ?? '' };
}

type Checked = ReturnType<typeof checked>;

function createInstinct(store: Store, key: string, input: ObserveInput, c: Checked, now: Date): ObserveResult {
  const at = now.toISOString();
  const category = c.parsed.category;
  const body = key.slice(key.indexOf(':') + 1).trim();
  const row = store.instincts.insert({
    key,
    category,
    trigger: cleanText(input.trigger, MAX_TEXT_LENGTH) ?? body,
    action: cleanText(input.action, MAX_TEXT_LENGTH) ?? c.explain ?? body,
    title: cleanText(input.title, 200) ?? body,
    domain: c.domain ?? DEFAULT_DOMAIN_BY_CATEGORY[category],
    project: c.project,
    source: c.source,
    explain: c.explain ?? '',
    metadata: JSON.stringify(input.metadata ?? {}),
    evidence: c.occurrences,
    confidence: input.initialScore ?? initialConfidence(c.occurrences),
    first_seen: input.firstSeen !== undefined && input.firstSeen < at ? input.firstSeen : at,
    last_seen: at,
  });
  store.instincts.addEvent({
    instinct_id: row.id,
    ts: at,
    kind: input.imported ? 'import' : 'create',
    delta_evidence: c.occurrences,
    delta_confidence: row.confidence,
    source: c.source,
    project: c.project,
    detail: '',
  });
  if (!input.imported) store.learning.confirmSuggestion(key, at);
  const level = levelFor({ evidence: row.evidence, lastSeen: at, distinctProjects: c.project ? 1 : 0 }, now);
  return { pattern: key, evidence: row.evidence, level, created: true, confidence: row.confidence };
}

/**
 * What a later observation adds to an instinct's metadata: an agent's report does not relabel
 * what was seen here as "reported by an agent" (that says who brought the instinct).
 */
function laterReport(existing: InstinctRow, metadata: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (reportedByAgent(existing.metadata) || !reportedByAgent(metadata)) return { ...metadata };
  const { reported_by: _agent, ...rest } = metadata;
  return rest;
}

function reinforceInstinct(store: Store, existing: InstinctRow, input: ObserveInput, c: Checked, now: Date): ObserveResult {
  const at = now.toISOString();
  let state = stateOf(existing);
  const before = foldDecay(state, now).confidence;
  for (let i = 0; i < Math.min(c.occurrences, 100); i++) state = reinforce(state, now);
  const metadata = input.metadata
    ? JSON.stringify({ ...parseJsonObject(existing.metadata), ...laterReport(existing, input.metadata) })
    : undefined;
  const evidence = existing.evidence + c.occurrences;
  store.instincts.update(existing.id, {
    evidence,
    confidence: state.confidence,
    folded_periods: state.foldedPeriods,
    last_seen: at,
    explain: c.explain || undefined,
    metadata,
    domain: c.domain,
  });
  store.instincts.addEvent({
    instinct_id: existing.id,
    ts: at,
    kind: input.imported ? 'raise' : 'reinforce',
    delta_evidence: c.occurrences,
    delta_confidence: round(state.confidence - before, 3),
    source: c.source,
    project: c.project,
    detail: '',
  });
  if (!input.imported) store.learning.confirmSuggestion(existing.key, at);
  const projects = store.instincts.distinctProjects(existing.id).length;
  const level = levelFor({ evidence, lastSeen: at, distinctProjects: projects }, now);
  return { pattern: existing.key, evidence, level, created: false, confidence: state.confidence };
}

/** Records occurrences of a pattern: creates it, or reinforces it (evidence +n, score up, last_seen now). */
export function observe(store: Store, input: ObserveInput): ObserveResult {
  const c = checked(input);
  const now = store.clock.now();
  return store.transaction(() => {
    const key = store.instincts.resolveAlias(c.parsed.key);
    const aliased = aliasedFrom(key, c.parsed.key);
    const existing = store.instincts.get(key);
    const result = existing ? reinforceInstinct(store, existing, input, c, now) : createInstinct(store, key, input, c, now);
    return { ...result, ...aliased };
  });
}

/** Raises a pattern's evidence count to `target` when it is below it; never lowers. Returns whether it rose. */
export function raiseEvidence(
  store: Store,
  key: string,
  target: number,
  origin: { source: string; project: string; detail: string },
): boolean {
  const stored = store.instincts.get(store.instincts.resolveAlias(key));
  if (!stored || !(target > stored.evidence)) return false;
  store.instincts.update(stored.id, { evidence: target });
  store.instincts.addEvent({
    instinct_id: stored.id,
    ts: store.clock.now().toISOString(),
    kind: 'raise',
    delta_evidence: target - stored.evidence,
    delta_confidence: 0,
    ...origin,
  });
  return true;
}

/** The key an old key was merged into (by `alias`), when it names no instinct of its own; undefined otherwise. */
export function mergedInto(store: Store, key: string): string | undefined {
  const named = key.trim();
  if (store.instincts.get(named)) return undefined;
  const into = store.instincts.resolveAlias(named);
  return into !== named && store.instincts.get(into) ? into : undefined;
}

/** The key asked for, when it was merged into `key`: the answer says whose record it is. */
export function aliasedFrom(key: string, asked: string): { aliased_from?: string } {
  const named = asked.trim();
  return key !== named ? { aliased_from: named } : {};
}

export function requireInstinct(store: Store, key: string): InstinctRow {
  const row = store.instincts.get(key.trim()) ?? store.instincts.get(store.instincts.resolveAlias(key.trim()));
  if (!row) throw new NotFoundError(key, 'List known keys with `homunculus list`, or search with `homunculus search WORD`.');
  return row;
}

interface FeedbackResult {
  pattern: string;
  feedback: Feedback;
  before: number;
  after: number;
  /** The key given, when it was merged into `pattern`: the mark went to `pattern`. */
  aliased_from?: string;
  /** Said when the mark changed nothing a user would expect it to. */
  note?: string;
}

/** What a mark means when its score says nothing of it, in words; undefined otherwise. Pure. */
const markNote = (feedback: Feedback, before: number, after: number): string | undefined => {
  if (feedback === 'wrong') return 'Marked wrong: it is no longer given to any agent, whatever its score; marking it strong gives it back.';
  return feedback === 'weak' && after >= before
    ? `Already at the floor (${after.toFixed(2)}): weak lowers it no further, and it is still given when a prompt clearly matches it; mark it wrong to stop that.`
    : undefined;
};

/** `source` says where the correction came from in the event log: the CLI and MCP are the user's, the dashboard its own. */
export function giveFeedback(store: Store, key: string, feedback: Feedback, source = 'user'): FeedbackResult {
  const now = store.clock.now();
  return store.transaction(() => {
    const row = requireInstinct(store, key);
    const before = foldDecay(stateOf(row), now).confidence;
    const next = applyFeedback(stateOf(row), feedback, now);
    store.instincts.update(row.id, { confidence: next.confidence, folded_periods: next.foldedPeriods });
    store.instincts.addEvent({
      instinct_id: row.id,
      ts: now.toISOString(),
      kind: 'feedback',
      delta_evidence: 0,
      delta_confidence: round(next.confidence - before, 3),
      source,
      project: '',
      detail: feedback,
    });
    const note = markNote(feedback, before, next.confidence);
    const aliased = aliasedFrom(row.key, key);
    return { pattern: row.key, feedback, before, after: next.confidence, ...aliased, ...(note ? { note } : {}) };
  });
}

interface AliasResult {
  aliased: string;
  target: string;
  evidence_moved: number;
}

/**
 * Retires `pattern` into `target`: evidence is summed, future observations rerouted. `source`
 * names who merged them (cli, mcp, dashboard) in the event log; without it the event keeps
 * the retired instinct's own source.
 */
export function aliasPattern(store: Store, pattern: string, target: string, source?: string): AliasResult {
  const from = parseKey(pattern).key;
  const named = parseKey(target).key;
  if (from === named) throw new UsageError('A pattern cannot be an alias of itself.');
  const now = store.clock.now().toISOString();
  return store.transaction(() => {
    // A target merged into another is that other one, as `get` finds it.
    const to = store.instincts.resolveAlias(named);
    if (to === from) throw new UsageError(`"${named}" is already an alias of "${from}"; aliasing back would loop.`);
    const targetRow = store.instincts.get(to);
    if (!targetRow) throw new NotFoundError(`target pattern '${named}'`, 'The target must already exist; observe it first.');
    const retired = store.instincts.get(from);
    let moved = 0;
    if (retired) {
      moved = retired.evidence;
      store.instincts.update(targetRow.id, {
        evidence: targetRow.evidence + retired.evidence,
        first_seen: retired.first_seen < targetRow.first_seen ? retired.first_seen : targetRow.first_seen,
        last_seen: retired.last_seen > targetRow.last_seen ? retired.last_seen : targetRow.last_seen,
        confidence: Math.max(targetRow.confidence, retired.confidence),
        folded_periods: retired.last_seen > targetRow.last_seen ? retired.folded_periods : targetRow.folded_periods,
      });
      // Keep the retired key's project history on the target, so universality survives the merge.
      store.instincts.moveEvents(retired.id, targetRow.id, retired.key);
      store.instincts.addEvent({
        instinct_id: targetRow.id,
        ts: now,
        kind: 'alias',
        delta_evidence: retired.evidence,
        delta_confidence: 0,
        source: source ?? retired.source,
        project: retired.project,
        detail: `absorbed ${from}`,
      });
      store.instincts.delete(retired.id);
    }
    store.instincts.retargetAliases(from, to);
    store.instincts.setAlias(from, to, now);
    return { aliased: from, target: to, evidence_moved: moved };
  });
}

interface ConsolidateLevelsResult {
  promoted_to_mature: number;
  promoted_to_rule: number;
  promoted_to_universal: number;
  total: number;
}

/** Stores each instinct's level where evidence has carried it past a boundary; never demotes. */
export function consolidateLevels(store: Store): ConsolidateLevelsResult {
  const now = store.clock.now();
  const result: ConsolidateLevelsResult = { promoted_to_mature: 0, promoted_to_rule: 0, promoted_to_universal: 0, total: 0 };
  store.transaction(() => {
    const rows = store.instincts.list();
    const projectCounts = store.instincts.distinctProjectCounts();
    result.total = rows.length;
    for (const row of rows) {
      const projects = projectCounts.get(row.id) ?? 0;
      const next = promotedLevel(row.level, { evidence: row.evidence, lastSeen: row.last_seen, distinctProjects: projects }, now);
      if (next === row.level) continue;
      store.instincts.update(row.id, { level: next });
      for (let rank = row.level + 1; rank <= next; rank++) {
        const level = LEVEL_BY_RANK[rank];
        if (level === 'mature') result.promoted_to_mature++;
        else if (level === 'rule') result.promoted_to_rule++;
        else if (level === 'universal') result.promoted_to_universal++;
      }
    }
  });
  return result;
}

export interface DecayResult {
  decayed: number;
  deleted: number;
}

/** Folds elapsed decay into stored scores and logs it; running twice in a period changes nothing. */
export function applyDecay(store: Store): DecayResult {
  const now = store.clock.now();
  let decayed = 0;
  store.transaction(() => {
    for (const row of store.instincts.list()) {
      const state = stateOf(row);
      const folded = foldDecay(state, now);
      if (folded.foldedPeriods === row.folded_periods) continue;
      store.instincts.update(row.id, { confidence: folded.confidence, folded_periods: folded.foldedPeriods });
      const delta = round(folded.confidence - row.confidence, 3);
      if (delta !== 0) {
        decayed++;
        store.instincts.addEvent({
          instinct_id: row.id,
          ts: now.toISOString(),
          kind: 'decay',
          delta_evidence: 0,
          delta_confidence: delta,
          source: 'decay',
          project: '',
          detail: `${folded.foldedPeriods - row.folded_periods} period(s)`,
        });
      }
    }
  });
  return { decayed, deleted: 0 };
}

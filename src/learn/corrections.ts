/**
 * Corrections by hand (issue 16): edit an instinct's trigger and action, forget it, promote it
 * to a conviction or withdraw one. Each is one transaction and one line in the instinct event
 * log, with `source` saying where it came from (cli, mcp, dashboard).
 *
 * Forgetting keeps the audit line: the instinct's events stay under its key (instinct_id
 * NULL), the last of them the 'forget' with what was forgotten. It also forgets the tally that
 * made the instinct, and learning never counts an observation made before the forgetting
 * (apply.ts asks `forgottenBefore`, meaning-apply.ts `lastForgotten`): the next sync does not
 * learn it again from the same sessions, only from what happens afterwards.
 */
import { HomunculusError, UsageError } from '../core/errors.js';
import { round } from '../core/text.js';
import type { InstinctRow } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import { convictionOf, promoteRow, recordPromotions } from './evolve.js';
import { mergedInto, requireInstinct } from './instincts.js';
import { checkPromotion, promotionInput } from './promotion.js';
import { currentConfidence } from './records.js';

/** The longest trigger or action kept (as for learned ones). */
export const MAX_INSTINCT_TEXT = 4000;

type Field = 'trigger' | 'action' | 'title';
const FIELDS = ['trigger', 'action', 'title'] as const;

/** Text as an instinct holds it: one line, trimmed, no NUL. */
export const instinctText = (text: string): string => text.replaceAll('\u0000', '').replace(/\s+/g, ' ').trim();

interface EditResult {
  pattern: string;
  /** The fields whose text changed (none when the new text was the old). */
  changed: Field[];
  trigger: string;
  action: string;
  title: string;
  /** The text before the edit. */
  before: { trigger: string; action: string; title: string };
}

/** The longest title kept (as the import schema allows). */
const MAX_TITLE = 200;
const SAY: Record<Field, string> = { trigger: 'when it applies', action: 'what to do', title: 'what it is about' };

function wantedText(next: Partial<Record<Field, string>>): Partial<Record<Field, string>> {
  const wanted: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    const value = next[field];
    if (value === undefined) continue;
    const text = instinctText(value);
    if (!text) throw new UsageError(`The ${field} is empty.`, `Say ${SAY[field]} in a few words.`);
    const max = field === 'title' ? MAX_TITLE : MAX_INSTINCT_TEXT;
    if (text.length > max) throw new UsageError(`The ${field} is longer than ${max} characters.`);
    wanted[field] = text;
  }
  if (Object.keys(wanted).length === 0)
    throw new UsageError('Nothing to edit.', 'Give a new trigger, a new action, a title, or some of them.');
  return wanted;
}

/**
 * Rewrites an instinct's trigger, action and/or title; the event keeps the old text. A conviction
 * follows its instinct. A learned title summed up the old text ("run the tests with mise run
 * test:ci"), so rewriting the trigger or action without a title makes the new trigger the title:
 * no agent is then given a title that contradicts the rule.
 */
export function editInstinct(store: Store, key: string, next: Partial<Record<Field, string>>, source: string): EditResult {
  const wanted = wantedText(next);
  return store.transaction(() => {
    const row = requireInstinct(store, key);
    const before = { trigger: row.trigger, action: row.action, title: row.title };
    const rewritten = (['trigger', 'action'] as const).some((f) => wanted[f] !== undefined && wanted[f] !== row[f]);
    if (rewritten && wanted.title === undefined) wanted.title = wanted.trigger ?? row.trigger;
    const changed = FIELDS.filter((f) => wanted[f] !== undefined && wanted[f] !== row[f]);
    const after = { ...before, ...wanted };
    if (changed.length === 0) return { pattern: row.key, changed, ...after, before };
    store.instincts.update(row.id, Object.fromEntries(changed.map((f) => [f, after[f]])));
    const { title, rule } = convictionOf({ ...row, ...after });
    store.instincts.updateConviction(row.id, title, rule);
    store.instincts.addEvent({
      instinct_id: row.id,
      ts: store.clock.now().toISOString(),
      kind: 'edit',
      delta_evidence: 0,
      delta_confidence: 0,
      source,
      project: '',
      detail: JSON.stringify(Object.fromEntries(changed.map((f) => [f, { from: before[f], to: after[f] }]))),
    });
    return { pattern: row.key, changed, ...after, before };
  });
}

interface ForgetResult {
  pattern: string;
  trigger: string;
  action: string;
  evidence: number;
  /** It was a conviction, withdrawn with it. */
  conviction: boolean;
  forgotten_at: string;
}

/** Forgets an instinct: the row, its conviction and the tally that made it go; its event log stays, ending in 'forget'. */
export function forgetInstinct(store: Store, key: string, source: string): ForgetResult {
  return store.transaction(() => {
    // An old key would find the instinct it was merged into: forgetting that one, evidence and all, is not what was asked.
    const into = mergedInto(store, key);
    if (into)
      throw new HomunculusError('merged', `${key.trim()} was merged into ${into}; forget that key to forget it. Nothing was forgotten.`);
    return forgetRow(store, requireInstinct(store, key), source);
  });
}

/**
 * Forgets a row as forgetInstinct does; `reason` says why when learning, not the user, let it
 * go (a co-edit pair no longer edited together), so `history` and `changes` still tell it.
 */
export function forgetRow(store: Store, row: InstinctRow, source: string, reason?: string): ForgetResult {
  const now = store.clock.now();
  const at = now.toISOString();
  const confidence = currentConfidence(row, now);
  const conviction = row.promoted_at !== null;
  store.instincts.forget(row, {
    ts: at,
    delta_evidence: -row.evidence,
    delta_confidence: -round(confidence, 3),
    source,
    project: row.project,
    detail: JSON.stringify({ ...snapshot(row, confidence), ...(reason ? { reason } : {}) }),
  });
  // Sessions that showed it before today count no more: only new ones can teach it again.
  store.learning.deleteSightings('pattern', row.key);
  store.learning.deleteSightings('contradiction', row.key);
  return { pattern: row.key, trigger: row.trigger, action: row.action, evidence: row.evidence, conviction, forgotten_at: at };
}

/** What the forget event keeps of the instinct, so the log says what was forgotten. */
function snapshot(row: InstinctRow, confidence: number) {
  return {
    trigger: row.trigger,
    action: row.action,
    title: row.title,
    category: row.category,
    project: row.project,
    evidence: row.evidence,
    confidence: round(confidence, 3),
    first_seen: row.first_seen,
    last_seen: row.last_seen,
    conviction: row.promoted_at !== null,
  };
}

/**
 * Whether learning must leave out what was seen at `ts` for `key`: the key was forgotten at or
 * after it. What happens after the forgetting counts again.
 */
export function forgottenBefore(store: Store, key: string, ts: string): string | undefined {
  const at = store.instincts.forgottenAt(key);
  return at !== undefined && ts <= at ? at : undefined;
}

/** The latest forgetting of any of these keys (or of the key each is an alias of), if one was forgotten. */
export function lastForgotten(store: Store, keys: readonly string[]): string | undefined {
  let latest: string | undefined;
  for (const key of new Set(keys.flatMap((k) => [k, store.instincts.resolveAlias(k)]))) {
    const at = store.instincts.forgottenAt(key);
    if (at !== undefined && (latest === undefined || at > latest)) latest = at;
  }
  return latest;
}

interface PromoteResult {
  pattern: string;
  title: string;
  rule: string;
  /** Whether the promotion rule (evolve) would have promoted it; a promotion by hand does not need it. */
  eligible: boolean;
  /** What the rule still asked for. */
  blockers: string[];
}

/** Promotes one instinct to a conviction because the user says so, whether or not the rule would yet. */
export function promoteInstinct(store: Store, key: string, source: string): PromoteResult {
  const now = store.clock.now();
  const at = now.toISOString();
  return store.transaction(() => {
    const row = requireInstinct(store, key);
    if (row.promoted_at !== null)
      throw new UsageError(`"${row.key}" is already a conviction.`, 'Un-promote it first if it should not be one.');
    const provenance = store.instincts.provenance([row.id]).get(row.id);
    const input = { ...promotionInput(row, currentConfidence(row, now), provenance, now), unpromotedAt: null };
    const check = checkPromotion(input, now);
    promoteRow(
      store,
      row,
      at,
      source,
      check.eligible
        ? 'promoted to conviction by hand'
        : `promoted to conviction by hand (the rule would not yet: ${check.blockers.join('; ')})`,
    );
    recordPromotions(store, at, 1);
    return { pattern: row.key, ...convictionOf(row), eligible: check.eligible, blockers: check.blockers };
  });
}

interface UnpromoteResult {
  pattern: string;
  title: string;
  rule: string;
}

/** Withdraws an instinct's conviction; the instinct stays, and evolve does not promote it again on its own. */
export function unpromoteInstinct(store: Store, key: string, source: string): UnpromoteResult {
  return store.transaction(() => {
    const row = requireInstinct(store, key);
    const held = store.instincts.convictions().find((c) => c.instinct_id === row.id);
    if (row.promoted_at === null && !held)
      throw new UsageError(`"${row.key}" is not a conviction.`, 'Only a conviction can be un-promoted.');
    const { title, rule } = held ?? convictionOf(row);
    store.instincts.deleteConviction(row.id);
    store.instincts.update(row.id, { promoted_at: null, promoted_to: null });
    store.instincts.addEvent({
      instinct_id: row.id,
      ts: store.clock.now().toISOString(),
      kind: 'unpromote',
      delta_evidence: 0,
      delta_confidence: 0,
      source,
      project: row.project,
      detail: `conviction withdrawn: ${title}: ${rule}`,
    });
    return { pattern: row.key, title, rule };
  });
}

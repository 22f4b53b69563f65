/** Conviction promotion (/homunculus-evolve): preview with reasons, then promote. */
import type { ConvictionRow, InstinctRow } from '../store/instincts.js';
import { parseJson } from '../store/json.js';
import type { Store } from '../store/store.js';
import { currentConfidence } from './records.js';
import { checkPromotion, isStaleConviction, promotionInput } from './promotion.js';

interface EvolveCandidate {
  pattern: string;
  title: string;
  confidence: number;
  eligible: boolean;
  reasons: string[];
  blockers: string[];
}

interface StaleConviction {
  pattern: string;
  title: string;
  confidence: number;
}

interface EvolveResult {
  candidates: EvolveCandidate[];
  promoted: string[];
  stale: StaleConviction[];
}

/** The conviction an instinct makes: its title and the rule it states. */
export function convictionOf(row: Pick<InstinctRow, 'title' | 'trigger' | 'key' | 'action' | 'explain'>): { title: string; rule: string } {
  const title = row.title || row.trigger || row.key;
  const action = row.action || row.explain || row.trigger;
  return { title, rule: action };
}

/** A conviction in words: "title: rule", or the rule alone when it only says its title again ("Use uv, not pip: Use uv, not pip."). Pure. */
export function convictionText(c: { title: string; rule: string }): string {
  const bare = (text: string): string =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return bare(c.rule).startsWith(bare(c.title)) ? c.rule : `${c.title}: ${c.rule}`;
}

/** Makes a conviction of the instinct and logs it, by `source` (must run in a transaction). */
export function promoteRow(store: Store, row: InstinctRow, at: string, source: string, detail: string): void {
  const { title, rule } = convictionOf(row);
  store.instincts.addConviction(row.id, title, rule, at);
  store.instincts.update(row.id, { promoted_at: at, promoted_to: store.paths.convictions });
  store.instincts.addEvent({
    instinct_id: row.id,
    ts: at,
    kind: 'promote',
    delta_evidence: 0,
    delta_confidence: 0,
    source,
    project: row.project,
    detail,
  });
}

/** identity.json counts promotions over time: one instant per conviction made. */
export function recordPromotions(store: Store, at: string, count: number): void {
  if (count === 0) return;
  const history = parseJson<string[]>(store.identity.get('promotions'), []);
  store.identity.set('promotions', JSON.stringify([...history, ...Array.from({ length: count }, () => at)]));
}

/**
 * Lists every instinct not yet promoted with why it does or does not qualify (eligible
 * first), promotes the eligible ones when `promote` is set, and reports stale convictions.
 */
export function evolve(store: Store, options: { promote: boolean; includeIneligible?: boolean }): EvolveResult {
  const now = store.clock.now();
  const at = now.toISOString();
  return store.transaction(() => {
    const rows = store.instincts.list();
    const provenance = store.instincts.provenance(rows.filter((r) => r.promoted_at === null).map((r) => r.id));
    const candidates: EvolveCandidate[] = [];
    const promoted: string[] = [];
    const stale: StaleConviction[] = [];
    for (const row of rows) {
      const confidence = currentConfidence(row, now);
      const isPromoted = row.promoted_at !== null;
      if (isStaleConviction(isPromoted, confidence, row.confidence)) stale.push({ pattern: row.key, title: row.title, confidence });
      if (isPromoted) continue;
      const check = checkPromotion(promotionInput(row, confidence, provenance.get(row.id), now), now);
      if (!check.eligible && !options.includeIneligible) continue;
      candidates.push({ pattern: row.key, title: row.title, confidence, ...check });
      if (options.promote && check.eligible) {
        promoteRow(store, row, at, 'evolve', 'promoted to conviction');
        promoted.push(row.key);
      }
    }
    recordPromotions(store, at, promoted.length);
    candidates.sort((a, b) => Number(b.eligible) - Number(a.eligible) || b.confidence - a.confidence);
    return { candidates, promoted, stale };
  });
}

/**
 * The convictions with their current confidence; given a project (fingerprint), only those that
 * hold there, as for any instinct: the project's own, those seen in it, and the truly global
 * ones (a pattern filed for every project but seen in one project only is that project's).
 * `given`: only those an agent is given, leaving out what the user marked wrong.
 */
export function listConvictions(
  store: Store,
  project?: string,
  options: { given?: boolean } = {},
): (ConvictionRow & { confidence: number; stale: boolean })[] {
  const now = store.clock.now();
  const convictions = store.instincts.convictions();
  const scope = project !== undefined ? { project, includeGlobal: true } : {};
  // The instincts behind them, in one query that also applies the scope and the verdict.
  const held = new Map(
    store.instincts.list({ ids: convictions.map((c) => c.instinct_id), ...scope, unrefuted: options.given }).map((r) => [r.id, r]),
  );
  return convictions.flatMap((c) => {
    const instinct = held.get(c.instinct_id);
    if (!instinct) return [];
    const confidence = currentConfidence(instinct, now);
    return [{ ...c, confidence, stale: isStaleConviction(true, confidence, instinct.confidence) }];
  });
}

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

function conviction(row: InstinctRow): { title: string; rule: string } {
  const title = row.title || row.trigger || row.key;
  const action = row.action || row.explain || row.trigger;
  return { title, rule: action };
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
      if (isStaleConviction(isPromoted, confidence)) stale.push({ pattern: row.key, title: row.title, confidence });
      if (isPromoted) continue;
      const check = checkPromotion(promotionInput(row, confidence, provenance.get(row.id), now), now);
      if (!check.eligible && !options.includeIneligible) continue;
      candidates.push({ pattern: row.key, title: row.title, confidence, ...check });
      if (options.promote && check.eligible) {
        const { title, rule } = conviction(row);
        store.instincts.addConviction(row.id, title, rule, at);
        store.instincts.update(row.id, { promoted_at: at, promoted_to: store.paths.convictions });
        store.instincts.addEvent({
          instinct_id: row.id,
          ts: at,
          kind: 'promote',
          delta_evidence: 0,
          delta_confidence: 0,
          source: 'evolve',
          project: row.project,
          detail: 'promoted to conviction',
        });
        promoted.push(row.key);
      }
    }
    if (promoted.length) {
      const history = parseJson<string[]>(store.identity.get('promotions'), []);
      store.identity.set('promotions', JSON.stringify([...history, ...promoted.map(() => at)]));
    }
    candidates.sort((a, b) => Number(b.eligible) - Number(a.eligible) || b.confidence - a.confidence);
    return { candidates, promoted, stale };
  });
}

export function listConvictions(store: Store): (ConvictionRow & { confidence: number; stale: boolean })[] {
  const now = store.clock.now();
  return store.instincts.convictions().map((c) => {
    const instinct = store.instincts.getById(c.instinct_id) as InstinctRow;
    const confidence = currentConfidence(instinct, now);
    return { ...c, confidence, stale: isStaleConviction(true, confidence) };
  });
}

/** Conviction promotion (seed 000 /homunculus-evolve): preview with reasons, then promote. */
import { writeTx } from '../store/db.js';
import { getIdentityValue, setIdentityValue } from '../store/identity.js';
import { type InstinctRow, addEvent, listInstincts, updateInstinct } from '../store/instincts.js';
import { parseJson } from '../store/json.js';
import type { Store } from '../store/store.js';
import { scoreOf } from './records.js';
import { checkPromotion, isStaleConviction } from './promotion.js';

export interface EvolveCandidate {
  pattern: string;
  title: string;
  score: number;
  eligible: boolean;
  reasons: string[];
  blockers: string[];
}

export interface StaleConviction {
  pattern: string;
  title: string;
  score: number;
}

export interface EvolveResult {
  candidates: EvolveCandidate[];
  promoted: string[];
  stale: StaleConviction[];
}

export interface ConvictionRow {
  id: number;
  instinct_id: number;
  title: string;
  rule: string;
  created_at: string;
}

export function conviction(row: InstinctRow): { title: string; rule: string } {
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
  return writeTx(store.db, () => {
    const rows = listInstincts(store.db);
    const candidates: EvolveCandidate[] = [];
    const promoted: string[] = [];
    const stale: StaleConviction[] = [];
    for (const row of rows) {
      const score = scoreOf(row, now);
      const isPromoted = row.promoted_at !== null;
      if (isStaleConviction(isPromoted, score)) stale.push({ pattern: row.key, title: row.title, score });
      if (isPromoted) continue;
      const check = checkPromotion({ confidence: score, firstSeen: row.first_seen, lastSeen: row.last_seen, promoted: false }, now);
      if (!check.eligible && !options.includeIneligible) continue;
      candidates.push({ pattern: row.key, title: row.title, score, ...check });
      if (options.promote && check.eligible) {
        const { title, rule } = conviction(row);
        store.db.prepare('INSERT INTO convictions (instinct_id, title, rule, created_at) VALUES (?, ?, ?, ?)').run(row.id, title, rule, at);
        updateInstinct(store.db, row.id, { promoted_at: at, promoted_to: store.paths.convictions });
        addEvent(store.db, {
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
      const history = parseJson<string[]>(getIdentityValue(store.db, 'promotions'), []);
      setIdentityValue(store.db, 'promotions', JSON.stringify([...history, ...promoted.map(() => at)]));
    }
    candidates.sort((a, b) => Number(b.eligible) - Number(a.eligible) || b.score - a.score);
    return { candidates, promoted, stale };
  });
}

export function listConvictions(store: Store): (ConvictionRow & { pattern: string; score: number; stale: boolean })[] {
  const now = store.clock.now();
  const rows = store.db
    .prepare('SELECT c.*, i.key AS pattern FROM convictions c JOIN instincts i ON i.id = c.instinct_id ORDER BY c.created_at, c.id')
    .all() as (ConvictionRow & { pattern: string })[];
  return rows.map((c) => {
    const instinct = store.db.prepare('SELECT * FROM instincts WHERE id = ?').get(c.instinct_id) as InstinctRow;
    const score = scoreOf(instinct, now);
    return { ...c, score, stale: isStaleConviction(true, score) };
  });
}

/**
 * The finish: the modifiers (confidence, activation, recency, superseded; a collection's
 * profile may score its own hits), the filters (neighbours may lie outside them), the
 * order, an optional reranker, the minimum score and the limit.
 */
import type { DocumentRow } from '../../store/documents/index.js';
import { parseJsonObject } from '../../store/json.js';
import { type AppliedModifiers, RECENCY_COLLECTIONS, modifiersFor } from '../modifiers.js';
import { asksCurrentState, newestWithinSubject, scoresInRankOrder } from '../current.js';
import { applyRerank } from '../rerank.js';
import type { HitExplain, SearchHit } from '../search.js';
import { isSuperseded } from '../supersede.js';
import type { Expansion } from './expansion.js';
import type { Fusion } from './fusion.js';
import type { Pass, QueryPlan } from './pass.js';

const passesFilter = (row: DocumentRow, filter: QueryPlan['filter']): boolean =>
  (!filter.collections || filter.collections.length === 0 || filter.collections.includes(row.collection)) &&
  (filter.project === undefined || row.project === filter.project) &&
  (!filter.since || (row.ts !== null && row.ts >= filter.since)) &&
  (!filter.until || (row.ts !== null && row.ts <= filter.until));

const hitOf = (row: DocumentRow, score: number, explain: HitExplain): SearchHit => ({
  docId: row.id,
  id: row.ext_id,
  collection: row.collection,
  title: row.title,
  text: row.text,
  ts: row.ts,
  project: row.project,
  thread: row.thread,
  speaker: row.speaker,
  metadata: parseJsonObject(row.metadata),
  score,
  explain,
});

/** Each row's modifiers: those of its collection's profile, else the record's own (confidence, activation, recency, superseded). */
function modifiersOf(plan: QueryPlan, rows: readonly DocumentRow[]): Map<number, AppliedModifiers> {
  const out = new Map<number, AppliedModifiers>();
  const byCollection = new Map<string, DocumentRow[]>();
  for (const row of rows) {
    const group = byCollection.get(row.collection);
    if (group) group.push(row);
    else byCollection.set(row.collection, [row]);
  }
  for (const [collection, group] of byCollection) {
    const own = plan.profiles[collection]?.modifiers;
    if (own) {
      for (const [id, m] of own(group)) out.set(id, m);
      continue;
    }
    const useRecency = plan.recency ?? RECENCY_COLLECTIONS.includes(collection);
    for (const row of group) out.set(row.id, modifiersFor({ ...row, superseded: isSuperseded(row.metadata) }, plan.now, useRecency));
  }
  return out;
}

export async function finishStage(pass: Pass, fusion: Fusion, expansion: Expansion): Promise<SearchHit[]> {
  const { plan } = pass;
  const rows = [...expansion.scores.keys()].flatMap((id) => {
    const row = expansion.rows.get(id);
    return row && passesFilter(row, plan.filter) ? [row] : [];
  });
  const modifiers = modifiersOf(plan, rows);
  const hits: SearchHit[] = [];
  for (const row of rows) {
    const applied = modifiers.get(row.id) ?? { factor: 1 };
    const score = (expansion.scores.get(row.id) ?? 0) * applied.factor;
    hits.push(hitOf(row, score, { ...fusion.explain(row.id), ...expansion.explain(row.id, row), modifiers: applied }));
  }
  hits.sort((a, b) => b.score - a.score || a.docId - b.docId);
  // "What is it now?" is answered by the latest memory about it.
  const current = asksCurrentState(plan.text) ? scoresInRankOrder(newestWithinSubject(hits, plan.terms)) : hits;
  const ranked = plan.rerank ? await applyRerank(plan.text, current, plan.rerank) : current;
  const results = ranked.filter((h) => h.score >= plan.minScore).slice(0, plan.limit);
  pass.lap('finish');
  return results;
}

/**
 * The finish: the modifiers (confidence, activation, recency, superseded), the
 * filters (neighbours may lie outside them), the order, an optional reranker, the minimum
 * score and the limit.
 */
import type { DocumentRow } from '../../store/documents/index.js';
import { parseJsonObject } from '../../store/json.js';
import { RECENCY_COLLECTIONS, modifiersFor } from '../modifiers.js';
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

export async function finishStage(pass: Pass, fusion: Fusion, expansion: Expansion): Promise<SearchHit[]> {
  const { plan } = pass;
  const hits: SearchHit[] = [];
  for (const [id, score] of expansion.scores) {
    const row = expansion.rows.get(id);
    if (!row || !passesFilter(row, plan.filter)) continue;
    const useRecency = plan.recency ?? RECENCY_COLLECTIONS.includes(row.collection);
    const modifiers = modifiersFor({ ...row, superseded: isSuperseded(row.metadata) }, plan.now, useRecency);
    hits.push(hitOf(row, score * modifiers.factor, { ...fusion.explain(id), ...expansion.explain(id, row), modifiers }));
  }
  hits.sort((a, b) => b.score - a.score || a.docId - b.docId);
  const ranked = plan.rerank ? await applyRerank(plan.text, hits, plan.rerank) : hits;
  const results = ranked.filter((h) => h.score >= plan.minScore).slice(0, plan.limit);
  pass.lap('finish');
  return results;
}

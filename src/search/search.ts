/**
 * The query pipeline:
 *   1. lexical lists (BM25 on words, trigram for CJK/identifiers), lazy repair of missing
 *      embeddings among their hits, then the dense list;
 *   2. RRF fusion (k = 60, original-query lists 2x, top-rank bonus), or the strong-BM25
 *      shortcut that skips the dense list when one lexical hit clearly wins;
 *   3. pseudo-relevance feedback, neighbour spreading and thread evidence (see tuning);
 *   4. seed 003's modifiers (confidence, activation, recency), an optional reranker,
 *      filters and the limit. Every stage can be explained per hit.
 */
import { isSuperseded } from './supersede.js';
import { errorMessage } from '../core/errors.js';
import type { DocumentFilter, DocumentRepository, DocumentRow } from '../store/documents/index.js';
import type { Store } from '../store/store.js';
import { type ThreadPosition, rankByScore, spreadToNeighbours, threadBoost } from './context-expansion.js';
import type { Embedder } from './embeddings.js';
import { type RankedList, ORIGINAL_QUERY_WEIGHT, fuseRrf, isStrongBm25, normalizeBm25 } from './fusion.js';
import { bm25List, feedbackList, trigramList } from './lexical.js';
import { type AppliedModifiers, modifiersFor } from './modifiers.js';
import { type SearchMode, searchMode } from './modes.js';
import { feedbackTerms } from './feedback.js';
import { focusOnSpeakers, namedSpeakers, speakerFactor, withoutSpeakers } from './speakers.js';
import { contentTerms, sanitizeQuery } from './query-text.js';
import { matchesHint, timeHints } from './time-hints.js';
import { type RerankHook, applyRerank } from './rerank.js';
import type { ScoredId } from './vectors.js';
import { type Tuning, DEFAULT_TUNING } from './tuning.js';

/**
 * Collections whose records age: seed 003's recency decay (days since valid_at) applies to
 * facts by default. Sessions and episodes are history a query asks for on purpose: decaying
 * them by default buried a year-old session under any newer record (`--recency` opts in).
 */
export const RECENCY_COLLECTIONS: readonly string[] = ['facts'];

export interface SearchRequest {
  query: string;
  mode?: SearchMode;
  limit?: number;
  filter?: DocumentFilter;
  minScore?: number;
  /** true: decay every dated record; false: none; undefined: RECENCY_COLLECTIONS only. */
  recency?: boolean;
  tuning?: Partial<Tuning>;
  rerank?: RerankHook;
  /** Missing embeddings repaired during this query (default 20). */
  repair?: number;
}

export interface HitExplain {
  lists: { list: string; rank: number; score: number | undefined }[];
  fused: number;
  bonus: number;
  neighbours: number;
  thread: number;
  time: number;
  /** Factor of the speaker focus: below 1 when the query names another speaker (see speakers.ts). */
  speaker: number;
  modifiers: AppliedModifiers;
  rerank?: number;
}

export interface SearchHit {
  docId: number;
  id: string;
  collection: string;
  title: string;
  text: string;
  ts: string | null;
  project: string;
  thread: string | null;
  speaker: string | null;
  metadata: Record<string, unknown>;
  score: number;
  explain: HitExplain;
}

export interface SearchResponse {
  results: SearchHit[];
  mode: SearchMode;
  /** The strong-BM25 shortcut fired: the dense list was skipped. */
  shortcut: boolean;
  /** Embeddings repaired during this query. */
  repaired: number;
  notes: string[];
  /** Milliseconds per stage (lexical, repair, query_embedding, vector, feedback, fusion, expansion, finish). */
  timings: Record<string, number>;
}

const parseMeta = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

function threadPositions(rows: ReadonlyMap<number, DocumentRow>): Map<number, ThreadPosition> {
  const out = new Map<number, ThreadPosition>();
  for (const r of rows.values()) {
    out.set(r.id, { id: r.id, thread: r.thread === null ? undefined : `${r.collection}\u0000${r.project}\u0000${r.thread}`, seq: r.seq });
  }
  return out;
}

function neighbourFinder(documents: DocumentRepository, rows: Map<number, DocumentRow>) {
  return (p: ThreadPosition, radius: number): ThreadPosition[] => {
    const row = rows.get(p.id);
    if (!row || row.thread === null || row.seq === null) return [];
    const found = documents.threadNeighbours(
      { collection: row.collection, project: row.project, thread: row.thread, seq: row.seq },
      radius,
    );
    for (const f of found) if (!rows.has(f.id)) rows.set(f.id, f);
    return found.map((f) => ({ id: f.id, thread: p.thread, seq: f.seq }));
  };
}

const passesFilter = (row: DocumentRow, filter: DocumentFilter): boolean =>
  (!filter.collections || filter.collections.length === 0 || filter.collections.includes(row.collection)) &&
  (filter.project === undefined || row.project === filter.project) &&
  (!filter.since || (row.ts !== null && row.ts >= filter.since)) &&
  (!filter.until || (row.ts !== null && row.ts <= filter.until));

/** Runs `request` against the store's documents, at the store's clock. */
export async function search(store: Store, embedder: Embedder | null, request: SearchRequest): Promise<SearchResponse> {
  const now = store.clock.now();
  const mode = searchMode(request.mode);
  const limit = Math.max(1, Math.floor(request.limit ?? 10));
  const tuning: Tuning = { ...DEFAULT_TUNING, ...request.tuning };
  const filter = request.filter ?? {};
  const query = sanitizeQuery(request.query).trim();
  const notes: string[] = [];
  const empty: SearchResponse = { results: [], mode, shortcut: false, repaired: 0, notes, timings: {} };
  if (query === '') return empty;
  const depth = Math.max(tuning.depth, limit);
  const terms = contentTerms(query);
  // A named speaker is matched by speaker, not by the word: most documents that hold a
  // speaker's name are the other people addressing them.
  const named = mode === 'hybrid' && tuning.speakers ? namedSpeakers(store.documents, query) : new Set<string>();
  const lexicalTerms = withoutSpeakers(terms, named);
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (stage: string) => {
    const t = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (t - mark);
    mark = t;
  };

  // 1. Lexical lists.
  const lists: RankedList[] = [];
  let bm25 = { ids: [] as number[], scores: [] as number[] };
  if (mode !== 'vector') {
    const b = bm25List(store.documents, query, filter, depth, lexicalTerms);
    if (b.fellBack) notes.push('The query is not valid FTS5 syntax; searched its words instead.');
    bm25 = b;
    if (b.ids.length && tuning.weights.bm25 > 0)
      lists.push({ name: 'bm25', ids: b.ids, scores: b.scores, weight: tuning.weights.bm25 * ORIGINAL_QUERY_WEIGHT, original: true });
    const t = trigramList(store.documents, query, filter, depth);
    if (t.ids.length && tuning.weights.trigram > 0)
      lists.push({ name: 'trigram', ids: t.ids, scores: t.scores, weight: tuning.weights.trigram * ORIGINAL_QUERY_WEIGHT, original: true });
  }
  lap('lexical');
  const normalized = bm25.scores.map(normalizeBm25);
  const shortcut = mode === 'hybrid' && tuning.strongShortcut && isStrongBm25(normalized);

  // 2. Dense list (with lazy repair of the lexical hits that lack a vector).
  let repaired = 0;
  let dense: ScoredId[] = [];
  const useDense = embedder !== null && (mode === 'vector' || (mode === 'hybrid' && !shortcut && tuning.weights.vector > 0));
  if (mode === 'vector' && embedder === null) notes.push('Embeddings are turned off; vector mode has nothing to search.');
  if (useDense && embedder) {
    const changed = embedder.modelChanged();
    if (changed)
      notes.push(
        `The embedding model changed (was ${changed.from.provider}/${changed.from.model}); run \`homunculus embed\` to re-embed every document.`,
      );
    try {
      repaired = await embedder.repair(lists.flatMap((l) => l.ids).slice(0, 200), request.repair ?? 20);
    } catch (err) {
      // A busy database or a failing model must not cost the query its answer.
      notes.push(`Missing embeddings were not repaired: ${errorMessage(err)}`);
    }
    lap('repair');
    try {
      const qv = await embedder.embedQuery(query);
      lap('query_embedding');
      dense = embedder.index.search(qv, depth, filter);
    } catch (err) {
      if (mode === 'vector') throw err;
      notes.push(`Embeddings unavailable (${errorMessage(err)}); ranked by full-text search only.`);
    }
    lap('vector');
    if (dense.length) {
      lists.push({
        name: 'vector',
        ids: dense.map((d) => d.id),
        scores: dense.map((d) => d.score),
        weight: tuning.weights.vector * ORIGINAL_QUERY_WEIGHT,
        original: true,
      });
    }
  }

  // 3. Pseudo-relevance feedback: words the best lexical hits share, as a second, lighter list.
  if (mode === 'hybrid' && tuning.prf && tuning.weights.feedback > 0 && bm25.ids.length > 0) {
    const top = store.documents.byRowIds(bm25.ids.slice(0, tuning.prf.docs));
    const extra = feedbackTerms(
      bm25.ids.slice(0, tuning.prf.docs).map((id) => top.get(id)?.text ?? ''),
      terms,
      tuning.prf.terms,
    );
    if (extra.length) {
      const f = feedbackList(store.documents, extra, filter, depth);
      if (f.ids.length) lists.push({ name: 'feedback', ids: f.ids, scores: f.scores, weight: tuning.weights.feedback, original: false });
    }
  }

  // Single-list modes rank by the list's own score; hybrid fuses.
  lap('feedback');
  const fused = fuseRrf(lists, { bonus: tuning.rankBonus });
  if (fused.length === 0) return { ...empty, repaired, timings };
  const top = fused[0]?.score ?? 1;
  let scores = new Map<number, number>();
  if (mode === 'bm25') bm25.ids.forEach((id, i) => scores.set(id, normalized[i] ?? 0));
  else if (mode === 'vector') dense.forEach((d) => scores.set(d.id, d.score));
  // Later stages only reorder the head: the tail past 3x the limit is dropped before rows are read.
  else for (const f of fused.slice(0, Math.max(limit * 3, 60))) scores.set(f.id, f.score / top);
  const base = new Map(scores);

  const rows = store.documents.byRowIds([...scores.keys()]);
  lap('fusion');
  let afterNeighbours = scores;
  if (mode === 'hybrid' && (tuning.neighbours || tuning.thread)) {
    const positions = threadPositions(rows);
    let order = rankByScore(scores);
    if (tuning.neighbours) {
      const find = neighbourFinder(store.documents, rows);
      const withPositions = (p: ThreadPosition, r: number) => {
        const found = find(p, r);
        for (const f of found) if (!positions.has(f.id)) positions.set(f.id, f);
        return found;
      };
      scores = spreadToNeighbours(scores, order, positions, withPositions, tuning.neighbours);
      afterNeighbours = scores;
      order = rankByScore(scores);
    }
    if (tuning.thread) scores = threadBoost(scores, order, positions, tuning.thread);
  }
  const afterThread = scores;
  if (mode === 'hybrid' && tuning.time) {
    const hints = timeHints(query);
    if (hints.length > 0) {
      scores = new Map(scores);
      for (const [id, score] of scores) if (matchesHint(rows.get(id)?.ts ?? null, hints)) scores.set(id, score + tuning.time.weight);
    }
  }
  const afterTime = scores;
  if (mode === 'hybrid' && tuning.speakers) {
    scores = focusOnSpeakers(scores, (id) => rows.get(id)?.speaker, named, tuning.speakers.factor);
  }

  lap('expansion');
  // 4. Modifiers, filters, reranking, limit.
  const hits: SearchHit[] = [];
  const byId = new Map(fused.map((f) => [f.id, f]));
  for (const [id, score] of scores) {
    const row = rows.get(id);
    if (!row || !passesFilter(row, filter)) continue;
    const useRecency = request.recency ?? RECENCY_COLLECTIONS.includes(row.collection);
    const modifiers = modifiersFor({ ...row, superseded: isSuperseded(row.metadata) }, now, useRecency);
    const f = byId.get(id);
    const baseScore = base.get(id) ?? 0;
    const neighbourGain = (afterNeighbours.get(id) ?? 0) - baseScore;
    hits.push({
      docId: id,
      id: row.ext_id,
      collection: row.collection,
      title: row.title,
      text: row.text,
      ts: row.ts,
      project: row.project,
      thread: row.thread,
      speaker: row.speaker,
      metadata: parseMeta(row.metadata),
      score: score * modifiers.factor,
      explain: {
        lists: f?.contributions.map((c) => ({ list: c.list, rank: c.rank, score: c.score })) ?? [],
        fused: f ? f.rrf / top : 0,
        bonus: f ? f.bonus / top : 0,
        neighbours: neighbourGain,
        thread: (afterThread.get(id) ?? 0) - (afterNeighbours.get(id) ?? baseScore),
        time: (afterTime.get(id) ?? 0) - (afterThread.get(id) ?? 0),
        speaker: speakerFactor(row.speaker, named, tuning.speakers?.factor ?? 1),
        modifiers,
      },
    });
  }
  hits.sort((a, b) => b.score - a.score || a.docId - b.docId);
  let ranked = hits;
  if (request.rerank) ranked = await applyRerank(query, hits, request.rerank);
  const minScore = request.minScore ?? 0;
  const results = ranked.filter((h) => h.score >= minScore).slice(0, limit);
  lap('finish');
  return { results, mode, shortcut, repaired, notes, timings };
}

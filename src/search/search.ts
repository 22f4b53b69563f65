/**
 * The query pipeline, one named stage after another (search/stages/):
 *   1. lexical: BM25 on words, trigram for CJK and identifiers;
 *   2. dense: lazy repair of missing embeddings among the lexical hits, then the nearest
 *      vectors, unless the strong-BM25 shortcut fired (one lexical hit clearly wins);
 *   3. feedback: words the best lexical hits share, as a lighter list;
 *   4. fusion: RRF (k = 60, original-query lists 2x, top-rank bonus);
 *   5. expansion: neighbour spreading, thread evidence, time hints, speaker focus;
 *   6. finish: the modifiers (confidence, activation, recency), filters, an optional
 *      reranker, the limit.
 * A collection's profile (profiles.ts) narrows its candidates in every list, scores its
 * hits, and tunes the stages when a query searches it alone. Each stage records its timing;
 * fusion, expansion and finish each add their part to every hit's explanation.
 */
import type { DocumentFilter, DocumentRepository } from '../store/documents/index.js';
import type { Store } from '../store/store.js';
import { type Embedder, LAZY_REPAIR_MAX } from './embeddings.js';
import type { AppliedModifiers } from './modifiers.js';
import { type SearchMode, searchMode } from './modes.js';
import { type CollectionProfiles, scopedFilter, soleProfile } from './profiles.js';
import { sanitizeQuery } from '../text/query.js';
import { searchTerms } from '../text/terms.js';
import type { RerankHook } from './rerank.js';
import { namedSpeakers, withoutSpeakers } from './speakers.js';
import { expansionStage } from './stages/expansion.js';
import { finishStage } from './stages/finish.js';
import { fusionStage } from './stages/fusion.js';
import { denseStage, feedbackStage, lexicalStage } from './stages/lists.js';
import { type Pass, type QueryPlan, stopwatch } from './stages/pass.js';
import { type Tuning, DEFAULT_TUNING } from './tuning.js';

export interface SearchRequest {
  query: string;
  mode?: SearchMode;
  limit?: number;
  /** Candidates read from each list (default: the tuning's depth, at least the limit). */
  depth?: number;
  filter?: DocumentFilter;
  /** How each collection is scoped, scored and tuned (profiles.ts). */
  profiles?: CollectionProfiles;
  minScore?: number;
  /** true: decay every dated record; false: none; undefined: RECENCY_COLLECTIONS (modifiers.ts) only. */
  recency?: boolean;
  tuning?: Partial<Tuning>;
  rerank?: RerankHook;
  /** Missing embeddings repaired during this query (default 20). */
  repair?: number;
  /** The speaker names of the store's owner, for "what did I say" (default: user, me, human). */
  self?: readonly string[];
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

/** What `request` asks, or undefined when its query has nothing to search for. */
function planQuery(documents: DocumentRepository, request: SearchRequest, mode: SearchMode, now: Date): QueryPlan | undefined {
  const limit = Math.max(1, Math.floor(request.limit ?? 10));
  const profiles = request.profiles ?? {};
  const filter = request.filter ?? {};
  const sole = soleProfile(profiles, filter);
  const tuning: Tuning = { ...DEFAULT_TUNING, ...sole?.tuning, ...request.tuning };
  const text = sanitizeQuery(request.query).trim();
  if (text === '') return undefined;
  const terms = sole?.terms ? sole.terms(text) : searchTerms(text);
  // A named speaker is matched by speaker, not by the word: most documents that hold a
  // speaker's name are the other people addressing them.
  const named = mode === 'hybrid' && tuning.speakers ? namedSpeakers(documents, text, request.self) : new Set<string>();
  return {
    text,
    mode,
    limit,
    depth: request.depth ?? Math.max(tuning.depth, limit),
    tuning,
    filter: scopedFilter(profiles, filter),
    profiles,
    terms,
    ownSyntax: !sole?.terms,
    named,
    lexicalTerms: withoutSpeakers(terms, named),
    repair: request.repair ?? LAZY_REPAIR_MAX,
    recency: request.recency,
    rerank: request.rerank,
    minScore: request.minScore ?? 0,
    now,
  };
}

/** Runs `request` against the store's documents, at the store's clock. */
export async function search(store: Store, embedder: Embedder | null, request: SearchRequest): Promise<SearchResponse> {
  const now = store.clock.now();
  const mode = searchMode(request.mode);
  const notes: string[] = [];
  const plan = planQuery(store.documents, request, mode, now);
  if (!plan) return { results: [], mode, shortcut: false, repaired: 0, notes, timings: {} };
  const timings: Record<string, number> = {};
  const pass: Pass = { documents: store.documents, embedder, plan, notes, lap: stopwatch(timings) };
  const lexical = lexicalStage(pass);
  const dense = await denseStage(pass, lexical);
  const feedback = feedbackStage(pass, lexical.bm25);
  const lists = [...lexical.lists, ...(dense.list ? [dense.list] : []), ...(feedback ? [feedback] : [])];
  const fusion = fusionStage(pass, lists, lexical, dense.hits);
  if (!fusion) return { results: [], mode, shortcut: false, repaired: dense.repaired, notes, timings };
  const results = await finishStage(pass, fusion, expansionStage(pass, fusion));
  return { results, mode, shortcut: lexical.shortcut, repaired: dense.repaired, notes, timings };
}

/**
 * Facts as a collection of the one search pipeline: the graph's retrieval is the `facts`
 * collection's profile. Its candidates are the facts the question's time admits (current,
 * true at T, known at K, or all history but decayed facts), of its projects and the global
 * one, of its relations and memory types. Its lists are BM25 over the fact query terms and,
 * with an embedder, the shared vectors, fused by RRF at the graph's weights (semantic 0.7,
 * BM25 0.3; no qmd refinements). Every hit is then scored
 *
 *   score = rrf x activationFactor(ACT-R) x confidence x exp(-days / 90)
 *
 * days counting from the fact's valid_at to the instant asked about (now, or the past
 * instant of a time-travel query). With history included, a superseded fact keeps half its
 * score, so the value that replaced it ranks first.
 */
import { DAY_MS } from '../core/clock.js';
import { FACTS_COLLECTION } from '../core/graph-vocabulary.js';
import type { Embedder } from '../search/embeddings.js';
import { type AppliedModifiers, activationFactor, recencyDecay } from '../search/modifiers.js';
import type { CollectionProfile } from '../search/profiles.js';
import { type HitExplain, search } from '../search/search.js';
import { PLAIN_RRF, type Tuning } from '../search/tuning.js';
import type { DocumentRow } from '../store/documents/index.js';
import type { FactFilter } from '../store/graph/index.js';
import type { Store } from '../store/store.js';
import { activations } from './access.js';
import { type Fact, isCurrent } from './facts.js';
import { factTerms } from '../text/terms.js';
import type { MemoryType } from './memory-type.js';
import type { Relation } from './ontology.js';
import { factTime } from './temporal.js';

export const SEMANTIC_WEIGHT = 0.7;
export const BM25_WEIGHT = 0.3;
export const SUPERSEDED_PENALTY = 0.5;
/** Candidates read from each list. */
export const DEFAULT_LIST_LIMIT = 20;

/**
 * The graph's fusion: plain RRF (no rank bonus, shortcut or expansion) at its weights, over
 * every query word (the lists are short; counting common words cost the prompt hook more
 * than it saved).
 */
export const FACT_TUNING: Partial<Tuning> = {
  ...PLAIN_RRF,
  depth: DEFAULT_LIST_LIMIT,
  weights: { bm25: BM25_WEIGHT, vector: SEMANTIC_WEIGHT, trigram: 0, feedback: 0 },
  dropCommonTerms: false,
};

/** Which facts a search ranks. */
export interface FactScope {
  at?: string;
  knownAt?: string;
  /** Rank superseded and expired facts too (penalised), for questions about history. */
  includeHistory?: boolean;
  /** Facts of these projects and global facts (project ''); undefined = every project. */
  projects?: readonly string[];
  relations?: readonly Relation[];
  memoryTypes?: readonly MemoryType[];
}

export interface FactSearch extends FactScope {
  text: string;
  /** Candidates read from each list (default 20); every fused candidate is returned. */
  limit?: number;
  /** Missing fact vectors embedded during this search at most (default: the pipeline's 20). */
  repair?: number;
}

export interface ScoredFact {
  fact: Fact;
  score: number;
  explain: HitExplain;
}

export interface FactSearchResult {
  facts: ScoredFact[];
  /** Fact vectors embedded during the search. */
  repaired: number;
  notes: string[];
}

/** The facts a scope admits, as the store's filter. */
export function factFilter(scope: FactScope, now: Date): FactFilter {
  return {
    time: scope.includeHistory ? { history: true } : factTime(scope, now),
    projects: scope.projects,
    relations: scope.relations,
    memoryTypes: scope.memoryTypes,
  };
}

const factIdOf = (row: Pick<DocumentRow, 'ext_id'>): number => Number(row.ext_id);

/** The score factors of one fact, `reference` being the instant its recency is measured to. */
function factModifiers(fact: Fact, activation: number, reference: Date, now: Date, includeHistory: boolean): AppliedModifiers {
  const act = activationFactor(activation);
  const recency = recencyDecay((reference.getTime() - Date.parse(fact.valid_at)) / DAY_MS);
  const superseded = includeHistory && !isCurrent(fact, now) ? SUPERSEDED_PENALTY : undefined;
  return {
    activation: act,
    confidence: fact.confidence,
    recency,
    ...(superseded !== undefined ? { superseded } : {}),
    factor: act * fact.confidence * recency * (superseded ?? 1),
  };
}

/**
 * The `facts` collection's profile for a scope, at the store's clock. The facts it scores
 * are kept in `loaded` (by fact id), so the caller needs not read them again.
 */
export function factProfile(store: Store, scope: FactScope, loaded = new Map<number, Fact>()): CollectionProfile {
  const now = store.clock.now();
  const reference = scope.at ? new Date(scope.at) : scope.knownAt ? new Date(scope.knownAt) : now;
  return {
    scope: { facts: factFilter(scope, now) },
    tuning: FACT_TUNING,
    terms: (text) => factTerms(text),
    modifiers(rows) {
      for (const fact of store.graph.facts.byIds(rows.map(factIdOf))) loaded.set(fact.id, fact);
      const acts = activations(store, [...loaded.values()], now);
      const out = new Map<number, AppliedModifiers>();
      for (const row of rows) {
        const fact = loaded.get(factIdOf(row));
        if (!fact) continue;
        const activation = acts.get(fact.id) ?? Number.NEGATIVE_INFINITY;
        out.set(row.id, factModifiers(fact, activation, reference, now, scope.includeHistory === true));
      }
      return out;
    },
  };
}

/** Facts for a question, best first, through the one pipeline (BM25 alone without an embedder). */
export async function searchFacts(store: Store, embedder: Embedder | null, q: FactSearch): Promise<FactSearchResult> {
  const loaded = new Map<number, Fact>();
  const depth = q.limit ?? DEFAULT_LIST_LIMIT;
  const res = await search(store, embedder, {
    query: q.text,
    // Every fused candidate: two lists of `depth` each.
    limit: depth * 2,
    depth,
    filter: { collections: [FACTS_COLLECTION] },
    profiles: { [FACTS_COLLECTION]: factProfile(store, q, loaded) },
    // Raw RRF: the agentic retrieval compares the hits of several queries.
    tuning: { relativeScores: false },
    ...(q.repair !== undefined ? { repair: q.repair } : {}),
  });
  const facts = res.results.flatMap((hit) => {
    const fact = loaded.get(Number(hit.id));
    return fact ? [{ fact, score: hit.score, explain: hit.explain }] : [];
  });
  return { facts, repaired: res.repaired, notes: res.notes };
}

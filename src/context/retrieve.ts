/**
 * The agentic retrieval, up to the ranked facts: classify the task, generate 3-5 queries,
 * search each through the one pipeline's facts collection (BM25, plus the shared vectors
 * when an embedder is given, fused by RRF and scored with ACT-R activation, confidence and
 * recency), weigh by the query, expand the best entities' neighbourhood two hops, and
 * return the facts best first. Missing fact vectors are repaired on the way, at most 20 per
 * retrieval.
 *
 * A prompt about the past ("on 2026-01-15", "two weeks ago") searches the graph as it was
 * true then instead of now.
 */
import { searchFacts } from '../graph/fact-search.js';
import { neighbourhood } from '../graph/neighborhood.js';
import type { Fact } from '../graph/facts.js';
import { type Embedder, LAZY_REPAIR_MAX } from '../search/embeddings.js';
import { type Store, withClock } from '../store/store.js';
import { type TaskType, classifyTask } from './classify.js';
import { type Category, type GeneratedQuery, CATEGORY_RELATIONS, categoryOf, generateQueries } from './queries.js';
import { type TimeReference, timeReference } from './time-reference.js';

export const RESULTS_PER_QUERY = 20;
export const EXPANSION_SEEDS = 5;
export const MAX_EXPANSION_FACTS = 10;
export const MAX_RETRIEVED = 40;
/** An expanded fact scores below every direct hit: this share of the weakest, halved per hop. */
export const EXPANSION_DECAY = 0.5;

export interface RetrievedFact {
  fact: Fact;
  score: number;
  category: Category;
  via: 'search' | 'expansion';
}

export interface Retrieval {
  task: TaskType;
  queries: GeneratedQuery[];
  time?: TimeReference;
  facts: RetrievedFact[];
  /** Fact vectors embedded during the retrieval. */
  embedded: number;
  /** What the search had to leave out (the model failed: the facts then come from BM25 alone). */
  notes: string[];
}

export interface RetrieveOptions {
  prompt: string;
  /** Project fingerprint: its facts and global facts are searched; omit to search every project. */
  project?: string;
  /** Ranks by meaning too (semantic 0.7, BM25 0.3); without one, BM25 alone. */
  embedder?: Embedder | null;
  /** Search the graph as true at this instant (overrides a time reference in the prompt). */
  at?: string;
}

export async function agenticRetrieve(live: Store, options: RetrieveOptions): Promise<Retrieval> {
  // One instant for every query: they then share the facts in scope (read once).
  const now = live.clock.now();
  const store = withClock(live, { now: () => new Date(now) });
  const task = classifyTask(options.prompt);
  const queries = generateQueries(options.prompt, task);
  const time = options.at ? { at: options.at, phrase: options.at } : timeReference(options.prompt, now);
  const projects = options.project ? [options.project] : undefined;
  const at = time ? { at: time.at } : {};
  let embedded = 0;
  const notes = new Set<string>();
  const best = new Map<number, RetrievedFact>();
  for (const q of queries) {
    const res = await searchFacts(store, options.embedder ?? null, {
      text: q.text,
      ...at,
      projects,
      relations: q.category === 'context' ? undefined : CATEGORY_RELATIONS[q.category],
      limit: RESULTS_PER_QUERY,
      repair: LAZY_REPAIR_MAX - embedded,
    });
    embedded += res.repaired;
    for (const note of res.notes) notes.add(note);
    for (const h of res.facts) {
      const score = h.score * q.weight;
      const prev = best.get(h.fact.id);
      if (!prev || score > prev.score) best.set(h.fact.id, { fact: h.fact, score, category: categoryOf(h.fact.relation), via: 'search' });
    }
  }
  const ranked = [...best.values()].sort((a, b) => b.score - a.score || a.fact.id - b.fact.id).slice(0, MAX_RETRIEVED);

  const seeds = [...new Set(ranked.slice(0, EXPANSION_SEEDS).flatMap((r) => [r.fact.source_id, r.fact.target_id]))];
  const floor = ranked.at(-1)?.score ?? 0;
  let added = 0;
  for (const n of neighbourhood(store, seeds, { depth: 2, ...at, projects })) {
    if (added >= MAX_EXPANSION_FACTS) break;
    if (best.has(n.fact.id)) continue;
    best.set(n.fact.id, {
      fact: n.fact,
      score: floor * EXPANSION_DECAY ** n.depth,
      category: categoryOf(n.fact.relation),
      via: 'expansion',
    });
    ranked.push(best.get(n.fact.id) as RetrievedFact);
    added++;
  }
  return { task, queries, ...(time ? { time } : {}), facts: ranked, embedded, notes: [...notes] };
}

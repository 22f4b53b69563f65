/** What the stages of one query share: its plan, where they read, and where they report. */
import type { DocumentFilter, DocumentRepository } from '../../store/documents/index.js';
import type { Embedder } from '../embeddings.js';
import type { SearchMode } from '../modes.js';
import type { CollectionProfiles } from '../profiles.js';
import type { RerankHook } from '../rerank.js';
import type { Tuning } from '../tuning.js';

/** What a query asks, settled once before the stages run. */
export interface QueryPlan {
  /** The query text, cleaned of control characters and trimmed. */
  text: string;
  mode: SearchMode;
  limit: number;
  /** Candidates read from each list. */
  depth: number;
  tuning: Tuning;
  /** The request's filter, narrowed by the scopes of the collections it searches. */
  filter: DocumentFilter;
  profiles: CollectionProfiles;
  /** The query's content words (or the words its collection's profile picks). */
  terms: string[];
  /** Whether full-text syntax in the query is run as written (not when a profile picks the words). */
  ownSyntax: boolean;
  /** Speakers of stored documents that the query names (lower-cased). */
  named: ReadonlySet<string>;
  /** What the lexical lists look for: the content words without the named speakers' names. */
  lexicalTerms: string[];
  /** Missing embeddings repaired at most. */
  repair: number;
  recency: boolean | undefined;
  rerank: RerankHook | undefined;
  minScore: number;
  /** The instant record ages are measured from. */
  now: Date;
}

export interface Pass {
  readonly documents: DocumentRepository;
  readonly embedder: Embedder | null;
  readonly plan: QueryPlan;
  /** What the answer should tell its reader (a fallback taken, a model to re-embed). */
  readonly notes: string[];
  /** Ends `stage`: the time since the previous lap is added to its timing. */
  lap(stage: string): void;
}

/** Laps that add the milliseconds since the previous lap (or since this call) to `timings`. */
export function stopwatch(timings: Record<string, number>): (stage: string) => void {
  let mark = performance.now();
  return (stage) => {
    const t = performance.now();
    timings[stage] = (timings[stage] ?? 0) + (t - mark);
    mark = t;
  };
}

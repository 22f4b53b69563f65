/**
 * The pipeline configured per collection. A collection whose records carry rules of their
 * own (the knowledge graph's facts: bi-temporal validity, ACT-R activation) says which of
 * its documents are candidates at all, how its hits are scored, and, when a query searches
 * it alone, which words and lists it fuses and how. Collections without a profile get the
 * defaults.
 */
import type { DocumentFilter, DocumentRow } from '../store/documents/index.js';
import { MIRRORED_COLLECTIONS } from './documents.js';
import type { AppliedModifiers } from './modifiers.js';
import type { Tuning } from './tuning.js';

export interface CollectionProfile {
  /** Narrows this collection's candidates in every list (the store applies it; other collections are not affected). */
  scope?: Pick<DocumentFilter, 'facts'>;
  /** The knobs when a query searches this collection alone (over the defaults; the request's own tuning wins). */
  tuning?: Partial<Tuning>;
  /**
   * The words the lexical lists look for when a query searches this collection alone,
   * always as quoted terms (never the query's own full-text syntax). Default: its content words.
   */
  terms?: (text: string) => string[];
  /**
   * How much the dense list counts for this collection's documents (default 1): an encoder
   * may read some kinds of text poorly, and its nearest neighbours among them are then noise.
   */
  dense?: number;
  /** Score factors of this collection's hits by document row id, in place of the record's own confidence, activation and recency. */
  modifiers?: (rows: readonly DocumentRow[]) => ReadonlyMap<number, AppliedModifiers>;
}

/** Profiles by collection name. */
export type CollectionProfiles = Readonly<Record<string, CollectionProfile>>;

/** The profile of the one collection the filter names, if it names exactly one. */
export function soleProfile(profiles: CollectionProfiles, filter: DocumentFilter): CollectionProfile | undefined {
  const only = filter.collections?.length === 1 ? filter.collections[0] : undefined;
  return only === undefined ? undefined : profiles[only];
}

/** The request's filter narrowed by the scope of every collection it searches. */
export function scopedFilter(profiles: CollectionProfiles, filter: DocumentFilter): DocumentFilter {
  let out = filter;
  for (const [collection, profile] of Object.entries(profiles)) {
    const searched = !filter.collections?.length || filter.collections.includes(collection);
    if (profile.scope && searched) out = { ...out, ...profile.scope };
  }
  return out;
}

/** The dense list's factor for each hit, or undefined when every collection counts fully. */
export function denseFactors(profiles: CollectionProfiles, hits: readonly { collection?: string }[]): number[] | undefined {
  if (!Object.values(profiles).some((p) => p.dense !== undefined && p.dense !== 1)) return undefined;
  return hits.map((h) => (h.collection === undefined ? 1 : (profiles[h.collection]?.dense ?? 1)));
}

/**
 * The bundled encoder (USE-lite) reads what agent sessions leave (code, commands, error
 * output, agent prose) poorly: on the coding questions of BENCHMARKS.md its nearest
 * neighbours there cost hit@1, and at half weight they still add recall.
 */
const SESSION_DENSE: Readonly<Record<string, number>> = { 'use-lite': 0.5 };

/** `profiles` with the dense factor of the model `provider` on the collections learned from agent sessions. */
export function withSessionDense(profiles: CollectionProfiles, provider: string | undefined): CollectionProfiles {
  const dense = provider === undefined ? undefined : SESSION_DENSE[provider];
  if (dense === undefined) return profiles;
  const out: Record<string, CollectionProfile> = { ...profiles };
  for (const c of MIRRORED_COLLECTIONS) out[c] = { ...profiles[c], dense };
  return out;
}

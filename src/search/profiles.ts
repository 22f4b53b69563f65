/**
 * The pipeline configured per collection. A collection whose records carry rules of their
 * own (the knowledge graph's facts: bi-temporal validity, ACT-R activation) says which of
 * its documents are candidates at all, how its hits are scored, and, when a query searches
 * it alone, which words and lists it fuses and how. Collections without a profile get the
 * defaults.
 */
import type { DocumentFilter, DocumentRow } from '../store/documents/index.js';
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

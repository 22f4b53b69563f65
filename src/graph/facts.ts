/**
 * Facts (graph edges): the rules every higher operation shares.
 *
 * A fact is current when the graph still holds it (expired_at IS NULL) and it has not
 * stopped being true (invalid_at IS NULL or later than now).
 */
import { NotFoundError } from '../core/errors.js';
import type { Fact, HistoryEntry, NewFact } from '../store/graph/index.js';
import type { Store } from '../store/store.js';

export type { Fact, HistoryEntry, NewFact, Origin } from '../store/graph/index.js';

export function requireFact(store: Store, id: number): Fact {
  const fact = Number.isSafeInteger(id) ? store.graph.facts.get(id) : undefined;
  if (!fact) throw new NotFoundError(`fact ${id}`, 'List facts with `homunculus graph facts`.');
  return fact;
}

export const isCurrent = (fact: Pick<Fact, 'expired_at' | 'invalid_at'>, now: Date): boolean =>
  fact.expired_at === null && (fact.invalid_at === null || fact.invalid_at > now.toISOString());

/** Inserts the fact and logs its creation as its first access. */
export function insertFact(store: Store, row: NewFact): number {
  const id = store.graph.facts.insert(row);
  store.graph.accesses.record([id], row.created_at, 'create');
  return id;
}

const MAX_HISTORY = 5;

/** Appends the old version to the history, keeping the latest MAX_HISTORY. Pure. */
function pushHistory(history: readonly HistoryEntry[], entry: HistoryEntry, max = MAX_HISTORY): HistoryEntry[] {
  return [...history, entry].slice(-max);
}

/**
 * Reconsolidation as a write, unchecked (callers check mutability): the old version goes to
 * history; a changed description drops its search document's vector, embedded again on the
 * next repair.
 */
export function reconsolidateRow(store: Store, old: Fact, next: { description?: string; confidence?: number }, at: string): void {
  store.graph.facts.revise(old.id, {
    description: next.description ?? old.description,
    confidence: next.confidence ?? old.confidence,
    history: pushHistory(old.history, { description: old.description, confidence: old.confidence, reconsolidated_at: at }),
  });
}

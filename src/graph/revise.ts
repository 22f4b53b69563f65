/**
 * Changing what the graph holds without losing anything:
 * - supersede: close a fact in both time dimensions (invalid_at and expired_at) and link
 *   its replacement, if any;
 * - reconsolidate: enrich a semantic or procedural fact in place, keeping its previous
 *   versions (at most 5, oldest dropped); episodic facts are immutable.
 */
import { HomunculusError, UsageError } from '../core/errors.js';
import type { Store } from '../store/store.js';
import { type AddFactResult, type FactInput, addFact, parseConfidence, parseValidAt } from './add-fact.js';
import { type Fact, isCurrent, reconsolidateRow, requireFact } from './facts.js';
import { isMutable } from './memory-type.js';

function requireCurrent(store: Store, id: number): Fact {
  const fact = requireFact(store, id);
  if (!isCurrent(fact, store.clock.now())) {
    throw new HomunculusError(
      'fact_closed',
      `Fact ${id} is no longer current (${fact.expired_reason ?? 'invalid since ' + fact.invalid_at}).`,
      {
        hint: fact.superseded_by ? `Its replacement is fact ${fact.superseded_by}.` : 'Only current facts can change.',
      },
    );
  }
  return fact;
}

export function reconsolidateFact(store: Store, id: number, next: { description?: string; confidence?: number }): Fact {
  const description = next.description?.replace(/\s+/g, ' ').trim();
  if (next.description !== undefined && !description) throw new UsageError('The new description is empty.');
  const confidence = next.confidence === undefined ? undefined : parseConfidence(next.confidence);
  if (description === undefined && confidence === undefined)
    throw new UsageError('Nothing to reconsolidate.', 'Give --description and/or --confidence.');
  return store.transaction(() => {
    const fact = requireCurrent(store, id);
    if (!isMutable(fact.memory_type)) {
      throw new HomunculusError('immutable', `Fact ${id} is episodic: episodes are immutable.`, {
        hint: 'Supersede it instead (`homunculus graph supersede`), which keeps the original.',
      });
    }
    reconsolidateRow(store, fact, { description, confidence }, store.clock.now().toISOString());
    return store.graph.facts.get(id) as Fact;
  });
}

/** A replacement's description that never names the target it keeps: a new value given without its target, likely. */
export function keptTargetUnnamed(description: string, target: string): boolean {
  return !description.toLowerCase().includes(target.trim().toLowerCase());
}

interface SupersedeOptions {
  /** When the old fact stopped being true, not before its valid_at; defaults to the replacement's valid_at, else now (either at least its valid_at). */
  invalidAt?: string;
  replacement?: Omit<FactInput, 'noMerge'>;
  reason?: 'superseded' | 'contradicted' | 'retracted';
  /** Who closed it by hand (cli, mcp, dashboard), kept in its metadata. */
  by?: string;
}

interface SupersedeResult {
  superseded: Fact;
  replacement?: AddFactResult;
}

/**
 * When a closed fact stopped being true: `invalidAt` as given, refused before the fact became true
 * (an interval cannot end before it starts); else `fallback` (the replacement's valid_at, or now),
 * but never before valid_at: a fact closed before it would have become true was never true.
 */
export function closingInstant(fact: Pick<Fact, 'id' | 'valid_at'>, invalidAt: string | undefined, fallback: string): string {
  if (invalidAt === undefined) return fallback < fact.valid_at ? fact.valid_at : fallback;
  if (invalidAt < fact.valid_at)
    throw new UsageError(
      `--invalid-at ${invalidAt} is before fact ${fact.id} became true (valid_at ${fact.valid_at}): a fact cannot end before it starts.`,
      `Give an --invalid-at on or after ${fact.valid_at}, or leave it out.`,
    );
  return invalidAt;
}

export function supersedeFact(store: Store, id: number, options: SupersedeOptions = {}): SupersedeResult {
  const invalidAt = parseValidAt(options.invalidAt, 'invalid-at');
  return store.transaction(() => {
    const fact = requireCurrent(store, id);
    const now = store.clock.now().toISOString();
    // Checked before the replacement is added: a refusal leaves the graph as it was.
    const given = invalidAt === undefined ? undefined : closingInstant(fact, invalidAt, now);
    const replacement = options.replacement ? addFact(store, { ...options.replacement, noMerge: true }) : undefined;
    store.graph.facts.close(id, {
      expiredAt: now,
      invalidAt: given ?? closingInstant(fact, undefined, replacement?.fact.valid_at ?? now),
      reason: options.reason ?? (replacement ? 'superseded' : 'retracted'),
      supersededBy: replacement?.fact.id,
      closedBy: options.by,
    });
    return { superseded: store.graph.facts.get(id) as Fact, replacement };
  });
}

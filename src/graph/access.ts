/** ACT-R over the access log: every creation, re-assertion and retrieval of a fact counts. */
import type { Store } from '../store/store.js';
import { EMOTIONAL_WEIGHT, NEUTRAL_WEIGHT, activation } from './activation.js';
import type { Relation } from './ontology.js';

/** The log keeps this many accesses per fact; older ones add almost nothing (t^-0.5). */
export const MAX_ACCESSES_PER_FACT = 100;

/** Activation of each fact now, with its emotional weight applied. */
export function activations(store: Store, facts: readonly { id: number; emotional_weight: number }[], now: Date): Map<number, number> {
  const times = store.graph.accesses.times(facts.map((f) => f.id));
  return new Map(facts.map((f) => [f.id, activation(times.get(f.id) ?? [], now, f.emotional_weight)]));
}

const FAILURE_RELATIONS: ReadonlySet<Relation> = new Set(['fails_for', 'frustrated_with', 'blocked_by', 'caused_by', 'anti_pattern_in']);

/**
 * Corrections (the user said "no", "stop", "I told you") and failures (an error
 * pattern, a crash, frustration) weigh 1.5; everything else 1.0.
 */
export function emotionalWeightOf(input: { relation: Relation; correction?: boolean; involvesError?: boolean }): number {
  return input.correction || input.involvesError || FAILURE_RELATIONS.has(input.relation) ? EMOTIONAL_WEIGHT : NEUTRAL_WEIGHT;
}

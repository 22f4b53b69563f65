/** The ACT-R access log: every creation, re-assertion and retrieval of a fact. */
import type { Db } from '../store/db.js';
import { EMOTIONAL_WEIGHT, NEUTRAL_WEIGHT, activation } from './activation.js';
import type { Relation } from './ontology.js';

export type AccessKind = 'create' | 'retrieval' | 'reinforce';

/** The log keeps this many accesses per fact; older ones add almost nothing (t^-0.5). */
export const MAX_ACCESSES_PER_FACT = 100;

export function recordAccess(db: Db, factIds: readonly number[], at: string, kind: AccessKind): void {
  const stmt = db.prepare('INSERT INTO graph_fact_access (fact_id, at, kind) VALUES (?, ?, ?)');
  for (const id of new Set(factIds)) stmt.run(id, at, kind);
}

export function accessTimes(db: Db, factIds: readonly number[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  if (factIds.length === 0) return out;
  const rows = db
    .prepare(`SELECT fact_id, at FROM graph_fact_access WHERE fact_id IN (${[...new Set(factIds)].map((n) => Math.trunc(n)).join(',')})`)
    .all() as { fact_id: number; at: string }[];
  for (const r of rows) {
    const list = out.get(r.fact_id);
    if (list) list.push(r.at);
    else out.set(r.fact_id, [r.at]);
  }
  return out;
}

/** Activation of each fact now, with its emotional weight applied. */
export function activations(db: Db, facts: readonly { id: number; emotional_weight: number }[], now: Date): Map<number, number> {
  const times = accessTimes(
    db,
    facts.map((f) => f.id),
  );
  return new Map(facts.map((f) => [f.id, activation(times.get(f.id) ?? [], now, f.emotional_weight)]));
}

/** Facts that have been retrieved at least once (for the retrieval hit rate). */
export function retrievedFactCount(db: Db, factIds?: readonly number[]): number {
  const filter = factIds ? `AND fact_id IN (${factIds.map((n) => Math.trunc(n)).join(',') || 'NULL'})` : '';
  return (
    db.prepare(`SELECT COUNT(DISTINCT fact_id) AS n FROM graph_fact_access WHERE kind = 'retrieval' ${filter}`).get() as { n: number }
  ).n;
}

/** Drops all but the latest MAX_ACCESSES_PER_FACT accesses of each fact; returns rows removed. */
export function trimAccessLog(db: Db, keep = MAX_ACCESSES_PER_FACT): number {
  const info = db
    .prepare(
      `DELETE FROM graph_fact_access WHERE rowid IN (
         SELECT rowid FROM (SELECT rowid, ROW_NUMBER() OVER (PARTITION BY fact_id ORDER BY at DESC) AS n FROM graph_fact_access) WHERE n > ?)`,
    )
    .run(keep);
  return info.changes;
}

const FAILURE_RELATIONS: ReadonlySet<Relation> = new Set(['fails_for', 'frustrated_with', 'blocked_by', 'caused_by', 'anti_pattern_in']);

/**
 * Seed 003: corrections (the user said "no", "stop", "I told you") and failures (an error
 * pattern, a crash, frustration) weigh 1.5; everything else 1.0.
 */
export function emotionalWeightOf(input: { relation: Relation; correction?: boolean; involvesError?: boolean }): number {
  return input.correction || input.involvesError || FAILURE_RELATIONS.has(input.relation) ? EMOTIONAL_WEIGHT : NEUTRAL_WEIGHT;
}

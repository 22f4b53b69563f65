/**
 * Time travel over bi-temporal facts.
 *
 * - current:            held now and true now.
 * - true at T:          what the graph now believes was true at T: validity contains T.
 *                       Superseded facts count (their closed interval is still believed);
 *                       facts forgotten by decay do not.
 * - known at K (at T):  what the graph held at K (created <= K < expired), with the
 *                       validity it knew then: a fact closed after K was still open at K.
 *                       T defaults to K: the graph as a query at K would have answered.
 */
import type { Store } from '../store/store.js';
import { type Fact, CURRENT, selectFacts } from './facts.js';
import type { Relation } from './ontology.js';

export interface FactQuery {
  /** Valid time: what was true at this instant. */
  at?: string;
  /** Transaction time: what the graph held at this instant. */
  knownAt?: string;
  entityId?: number;
  relation?: Relation;
  project?: string;
  limit?: number;
}

export const TRUE_AT = `f.valid_at <= @at AND (f.invalid_at IS NULL OR f.invalid_at > @at) AND (f.expired_reason IS NULL OR f.expired_reason != 'decayed')`;

export const KNOWN_AT = `f.created_at <= @knownAt AND (f.expired_at IS NULL OR f.expired_at > @knownAt) AND f.valid_at <= @at
  AND ((f.expired_at IS NOT NULL AND f.expired_at > @knownAt) OR f.invalid_at IS NULL OR f.invalid_at > @at)`;

/** The SQL condition and parameters for a query's time dimensions. */
export function timeCondition(q: Pick<FactQuery, 'at' | 'knownAt'>, now: Date): { sql: string; params: Record<string, unknown> } {
  if (q.knownAt) return { sql: KNOWN_AT, params: { knownAt: q.knownAt, at: q.at ?? q.knownAt } };
  if (q.at) return { sql: TRUE_AT, params: { at: q.at } };
  return { sql: CURRENT, params: { now: now.toISOString() } };
}

export function queryFacts(store: Store, q: FactQuery = {}): Fact[] {
  const time = timeCondition(q, store.clock.now());
  const where = [time.sql];
  const params: Record<string, unknown> = { ...time.params };
  if (q.entityId !== undefined) {
    where.push('(f.source_id = @entity OR f.target_id = @entity)');
    params.entity = q.entityId;
  }
  if (q.relation) {
    where.push('f.relation = @relation');
    params.relation = q.relation;
  }
  if (q.project !== undefined) {
    where.push('f.project = @project');
    params.project = q.project;
  }
  const limit = q.limit !== undefined && q.limit > 0 ? `LIMIT ${Math.trunc(q.limit)}` : '';
  return selectFacts(store.db, where.join(' AND '), params, `ORDER BY f.valid_at DESC, f.id DESC ${limit}`);
}

/** Every fact about an entity, current or not, in the order they became true. */
export function timeline(store: Store, entityId: number): Fact[] {
  return selectFacts(store.db, '(f.source_id = @entity OR f.target_id = @entity)', { entity: entityId }, 'ORDER BY f.valid_at, f.id');
}

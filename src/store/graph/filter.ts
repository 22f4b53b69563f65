/**
 * Which facts a read concerns, as a structured filter, and its one translation to SQL.
 *
 * Time travel over bi-temporal facts:
 * - current at T:       held (not expired) and not yet invalid at T.
 * - true at T:          what the graph now believes was true at T: validity contains T.
 *                       Superseded facts count (their closed interval is still believed);
 *                       facts forgotten by decay do not.
 * - known at K (at T):  what the graph held at K (created <= K < expired), with the
 *                       validity it knew then: a fact closed after K was still open at K.
 * - history:            every fact but those forgotten by decay, whatever its time.
 */
import type { MemoryType, Relation } from '../../core/graph-vocabulary.js';
import type { Origin } from './records.js';

/** When facts hold. Instants are ISO-8601 strings: the store never reads the clock. */
export type FactTime =
  /** Current at `now`. */
  | { readonly now: string }
  /** True at `at`. */
  | { readonly at: string }
  /** Known at `knownAt`, true at `at` (default `knownAt`). */
  | { readonly knownAt: string; readonly at?: string }
  /** Every version but those forgotten by decay. */
  | { readonly history: true };

export interface FactFilter {
  /** Omitted: any time, decayed facts included. */
  time?: FactTime;
  ids?: readonly number[];
  /** Facts with this entity as source or target. */
  entityId?: number;
  sourceId?: number;
  targetId?: number;
  /** Facts from the same source or to the same target as this one (candidates for merging). */
  sameSourceOrTarget?: { readonly source_id: number; readonly target_id: number };
  relations?: readonly Relation[];
  memoryTypes?: readonly MemoryType[];
  /** Exactly this project ('' = global facts only). */
  project?: string;
  /** These projects' facts and the global ones (project ''). */
  projects?: readonly string[];
  origin?: Origin;
}

/** Orders of a fact list; ties go by fact id, in the same direction. */
export type FactOrder =
  /** Oldest recorded first (default). */
  | 'id'
  /** Newest recorded first. */
  | 'recent'
  /** In the order they became true. */
  | 'valid'
  /** Latest to become true first. */
  | 'latest-valid'
  /** Highest confidence first, newest among equals. */
  | 'strongest';

export const ORDER_SQL: Readonly<Record<FactOrder, string>> = {
  id: 'f.id',
  recent: 'f.id DESC',
  valid: 'f.valid_at, f.id',
  'latest-valid': 'f.valid_at DESC, f.id DESC',
  strongest: 'f.confidence DESC, f.id DESC',
};

export interface Where {
  sql: string;
  params: Record<string, unknown>;
}

/** Held and still true at @now. */
export const CURRENT = 'f.expired_at IS NULL AND (f.invalid_at IS NULL OR f.invalid_at > @now)';
const NOT_DECAYED = "(f.expired_reason IS NULL OR f.expired_reason != 'decayed')";
const TRUE_AT = `f.valid_at <= @at AND (f.invalid_at IS NULL OR f.invalid_at > @at) AND ${NOT_DECAYED}`;
const KNOWN_AT = `f.created_at <= @knownAt AND (f.expired_at IS NULL OR f.expired_at > @knownAt) AND f.valid_at <= @at
  AND ((f.expired_at IS NOT NULL AND f.expired_at > @knownAt) OR f.invalid_at IS NULL OR f.invalid_at > @at)`;

function timeWhere(time: FactTime): Where {
  if ('knownAt' in time) return { sql: KNOWN_AT, params: { knownAt: time.knownAt, at: time.at ?? time.knownAt } };
  if ('at' in time) return { sql: TRUE_AT, params: { at: time.at } };
  if ('now' in time) return { sql: CURRENT, params: { now: time.now } };
  return { sql: NOT_DECAYED, params: {} };
}

/** One condition per field given; a list travels as one JSON parameter, so the statement text stays the same. */
function fieldConditions(filter: FactFilter, params: Record<string, unknown>): string[] {
  const where: string[] = [];
  const when = (value: unknown, condition: string, bind: Record<string, unknown>) => {
    if (value === undefined) return;
    where.push(condition);
    Object.assign(params, bind);
  };
  const json = (values: readonly unknown[] | undefined) => (values ? JSON.stringify(values) : undefined);
  const near = filter.sameSourceOrTarget;
  when(filter.ids, 'f.id IN (SELECT value FROM json_each(@ids))', { ids: json(filter.ids) });
  when(filter.entityId, '(f.source_id = @entity OR f.target_id = @entity)', { entity: filter.entityId });
  when(filter.sourceId, 'f.source_id = @sourceId', { sourceId: filter.sourceId });
  when(filter.targetId, 'f.target_id = @targetId', { targetId: filter.targetId });
  when(near, '(f.source_id = @nearSource OR f.target_id = @nearTarget)', { nearSource: near?.source_id, nearTarget: near?.target_id });
  when(filter.relations, 'f.relation IN (SELECT value FROM json_each(@relations))', { relations: json(filter.relations) });
  when(filter.memoryTypes, 'f.memory_type IN (SELECT value FROM json_each(@memoryTypes))', {
    memoryTypes: json(filter.memoryTypes),
  });
  when(filter.project, 'f.project = @project', { project: filter.project });
  when(filter.projects, "(f.project = '' OR f.project IN (SELECT value FROM json_each(@projects)))", {
    projects: json(filter.projects),
  });
  when(filter.origin, 'f.origin = @origin', { origin: filter.origin });
  return where;
}

/** The filter as a condition on `graph_facts f` (always valid SQL: '1' when it keeps everything). */
export function factWhere(filter: FactFilter = {}): Where {
  const time = filter.time ? timeWhere(filter.time) : undefined;
  const params: Record<string, unknown> = { ...time?.params };
  const where = [...(time ? [time.sql] : []), ...fieldConditions(filter, params)];
  return { sql: where.length ? where.join(' AND ') : '1', params };
}

/** The same condition with every parameter renamed `<prefix><name>`, to sit beside another filter's parameters. */
export function prefixedWhere(where: Where, prefix: string): Where {
  return {
    sql: where.sql.replace(/@(\w+)/g, `@${prefix}$1`),
    params: Object.fromEntries(Object.entries(where.params).map(([k, v]) => [`${prefix}${k}`, v])),
  };
}

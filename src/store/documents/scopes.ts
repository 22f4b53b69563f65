/**
 * Collection scopes: a collection mirrored from records of its own is narrowed by those
 * records. The `facts` collection is narrowed by the graph's fact filter (bi-temporal time
 * travel, projects with the global one, relations, memory types), so every list of the
 * pipeline sees the facts the graph would list; documents of other collections pass.
 *
 * A fact's document has the row id minus the fact's id (the mirror triggers write it so):
 * a full-text hit or a vector tells its fact, and whether it is one, without reading the
 * document, as the graph's own index did.
 */
import { FACTS_COLLECTION } from '../../core/graph-vocabulary.js';
import { type Db, cachedStatement } from '../db.js';
import { type FactFilter, type Where, factWhere, prefixedWhere } from '../graph/filter.js';
import type { DocumentFilter } from './full-text.js';

/** The documents a scope admits in its collection; the other collections' documents are not affected. */
export interface ScopedIds {
  collection: string;
  ids: number[];
}

export interface CollectionScopes {
  /** The documents each scope of `filter` admits in its collection (nothing without a scope). */
  scopedIds(filter: DocumentFilter): ScopedIds[];
  /** Moves whenever another connection commits or this one writes: what was read before may be stale once it moved. */
  dataVersion(): string;
}

const FACT_PARAMS = 'fact_';

/** Only fact documents, as a condition on the row id `row`. */
export const factRowsOnly = (row: string): string => `${row} < 0`;

/** The fact filter as a condition on the row id `row` (other collections pass), or undefined without one. */
export function scopeCondition(facts: FactFilter | undefined, row: string): Where | undefined {
  if (!facts) return undefined;
  const where = prefixedWhere(factWhere(facts), FACT_PARAMS);
  return {
    sql: `(${row} >= 0 OR EXISTS (SELECT 1 FROM graph_facts f WHERE f.id = -${row} AND ${where.sql}))`,
    params: where.params,
  };
}

type ScopeRow = [row: number, relation: string, memoryType: string];

/** The last scope read per connection, without its relations and memory types, kept while the data holds. */
const lastScope = new WeakMap<Db, { key: string; version: string; rows: ScopeRow[] }>();

/**
 * The rows of the fact documents whose fact passes `facts`. The queries of one retrieval
 * share a time and projects and differ by relations: the facts of that time and projects are
 * read once (a scan of every fact), the relations and memory types picked from them here.
 */
function factScopeIds(db: Db, facts: FactFilter): ScopedIds {
  const { relations, memoryTypes, ...base } = facts;
  const key = JSON.stringify(base);
  const version = dataVersion(db);
  let scope = lastScope.get(db);
  if (scope?.key !== key || scope.version !== version) {
    const where = factWhere(base);
    const sql = `SELECT -f.id, f.relation, f.memory_type FROM graph_facts f WHERE ${where.sql}`;
    scope = { key, version, rows: cachedStatement(db, sql, { raw: true }).all(where.params) as ScopeRow[] };
    lastScope.set(db, scope);
  }
  const wanted = (values: readonly string[] | undefined, value: string) => values === undefined || values.includes(value);
  const ids = scope.rows.filter(([, r, m]) => wanted(relations, r) && wanted(memoryTypes, m)).map((r) => r[0]);
  return { collection: FACTS_COLLECTION, ids };
}

export function dataVersion(db: Db): string {
  const [version] = cachedStatement(db, "SELECT data_version || ':' || total_changes() FROM pragma_data_version", { raw: true }).get() as [
    string,
  ];
  return version;
}

export function createCollectionScopes(db: Db): CollectionScopes {
  return {
    scopedIds: (filter) => (filter.facts ? [factScopeIds(db, filter.facts)] : []),
    dataVersion: () => dataVersion(db),
  };
}

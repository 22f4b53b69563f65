/**
 * The reads the dashboard's graph view makes over the whole graph at once: edges without
 * their text, every entity's name and type, the access log up to an instant. Lean rows
 * (no JSON parsing, no joins for names) so 50k facts read in tens of milliseconds.
 */
import type { EntityType, MemoryType, Relation } from '../../core/graph-vocabulary.js';
import { type Db, cachedStatement } from '../db.js';
import { type FactFilter, factWhere } from './filter.js';

/** A fact's id, its two entities, its emotional weight and when it became true: all the view needs of every fact. */
export type FactEnds = readonly [id: number, source: number, target: number, weight: number, validAt: string];

/** A fact as a drawn edge. */
export interface Edge {
  id: number;
  source_id: number;
  target_id: number;
  relation: Relation;
  confidence: number;
}

/** How many kept facts are of a memory type, and how many of those became true after an instant. */
export interface MemoryTypeCount {
  memory_type: MemoryType;
  n: number;
  recent: number;
}

/** An entity as a drawn node, before its place in the graph is computed. */
export interface EntityBrief {
  id: number;
  type: EntityType;
  name: string;
  created_at: string;
}

export interface GraphViewRepository {
  /** The facts the filter keeps, as numbers only (tens of thousands are read per view). */
  ends(filter: FactFilter): FactEnds[];
  /** These facts as edges, in id order. */
  edges(ids: readonly number[]): Edge[];
  /** The kept facts counted by memory type, with those that became true after `since`. */
  memoryTypes(filter: FactFilter, since: string): MemoryTypeCount[];
  /** Every entity's name and type. */
  entityBriefs(): EntityBrief[];
  /** The instants each fact was accessed at or before `until` (facts never accessed are absent). */
  accessTimes(until: string): Map<number, string[]>;
  /** When the first and the last fact became true; null when there is none. */
  validRange(): { oldest: string; newest: string } | null;
}

// The view's covering index (migration graph-view-schema) holds every column these read.
const FROM = 'graph_facts f INDEXED BY graph_facts_view';

export function createGraphViewRepository(db: Db): GraphViewRepository {
  return {
    ends(filter) {
      const where = factWhere(filter);
      const sql = `SELECT f.id, f.source_id, f.target_id, f.emotional_weight, f.valid_at FROM ${FROM} WHERE ${where.sql}`;
      return cachedStatement(db, sql, { raw: true }).all(where.params) as FactEnds[];
    },
    edges: (ids) =>
      ids.length === 0
        ? []
        : (cachedStatement(
            db,
            'SELECT id, source_id, target_id, relation, confidence FROM graph_facts WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id',
          ).all(JSON.stringify(ids)) as Edge[]),
    memoryTypes(filter, since) {
      const where = factWhere(filter);
      const sql = `SELECT f.memory_type, COUNT(*) AS n, SUM(f.valid_at > @since) AS recent FROM ${FROM} WHERE ${where.sql} GROUP BY f.memory_type`;
      return cachedStatement(db, sql).all({ ...where.params, since }) as MemoryTypeCount[];
    },
    entityBriefs: () => cachedStatement(db, 'SELECT id, type, name, created_at FROM graph_entities').all() as EntityBrief[],
    accessTimes(until) {
      // Every fact's: joining to the facts shown costs more than skipping the others' rows.
      const sql = 'SELECT fact_id, at FROM graph_fact_access WHERE at <= ?';
      const rows = cachedStatement(db, sql, { raw: true }).all(until) as [number, string][];
      const out = new Map<number, string[]>();
      for (const [id, at] of rows) {
        const list = out.get(id);
        if (list) list.push(at);
        else out.set(id, [at]);
      }
      return out;
    },
    validRange() {
      const row = cachedStatement(db, 'SELECT MIN(valid_at) AS oldest, MAX(valid_at) AS newest FROM graph_facts').get() as {
        oldest: string | null;
        newest: string | null;
      };
      return row.oldest && row.newest ? { oldest: row.oldest, newest: row.newest } : null;
    },
  };
}

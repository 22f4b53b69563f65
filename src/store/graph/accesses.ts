/** The ACT-R access log: every creation, re-assertion and retrieval of a fact. */
import { type Db, cachedStatement } from '../db.js';
import type { AccessKind } from './records.js';

export interface AccessRepository {
  /** One access per distinct fact. */
  record(factIds: readonly number[], at: string, kind: AccessKind): void;
  /** The instants each fact was accessed (facts never accessed are absent). */
  times(factIds: readonly number[]): Map<number, string[]>;
  /** Facts retrieved at least once, among `factIds` when given. */
  retrievedCount(factIds?: readonly number[]): number;
  /** Drops all but the latest `keep` accesses of each fact; returns how many went. */
  trim(keep: number): number;
}

const TRIM = `DELETE FROM graph_fact_access WHERE rowid IN (
  SELECT rowid FROM (SELECT rowid, ROW_NUMBER() OVER (PARTITION BY fact_id ORDER BY at DESC) AS n FROM graph_fact_access) WHERE n > ?)`;

export function createAccessRepository(db: Db): AccessRepository {
  return {
    record(factIds, at, kind) {
      const insert = cachedStatement(db, 'INSERT INTO graph_fact_access (fact_id, at, kind) VALUES (?, ?, ?)');
      for (const id of new Set(factIds)) insert.run(id, at, kind);
    },
    times(factIds) {
      const out = new Map<number, string[]>();
      if (factIds.length === 0) return out;
      const rows = cachedStatement(db, 'SELECT fact_id, at FROM graph_fact_access WHERE fact_id IN (SELECT value FROM json_each(?))', {
        raw: true,
      }).all(JSON.stringify([...new Set(factIds)])) as [number, string][];
      for (const [id, at] of rows) {
        const list = out.get(id);
        if (list) list.push(at);
        else out.set(id, [at]);
      }
      return out;
    },
    retrievedCount(factIds) {
      const sql = "SELECT COUNT(DISTINCT fact_id) AS n FROM graph_fact_access WHERE kind = 'retrieval'";
      if (!factIds) return (cachedStatement(db, sql).get() as { n: number }).n;
      const among = cachedStatement(db, `${sql} AND fact_id IN (SELECT value FROM json_each(?))`);
      return (among.get(JSON.stringify(factIds)) as { n: number }).n;
    },
    trim: (keep) => cachedStatement(db, TRIM).run(keep).changes,
  };
}

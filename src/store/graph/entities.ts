/** Entities (graph nodes): one row per normalised name. SQL only; merging a sighting is the graph's rule. */
import type { EntityType, Relation } from '../../core/graph-vocabulary.js';
import { type Db, cachedStatement } from '../db.js';
import { parseJsonObject } from '../json.js';
import { CURRENT } from './filter.js';
import type { Entity, NewEntity } from './records.js';

/** A current fact between a project entity and another entity (cross-project relevance compares these). */
export interface ProjectNeighbour {
  project_id: number;
  entity_id: number;
  entity_name: string;
  entity_type: EntityType;
  relation: Relation;
}

export interface EntityRepository {
  get(id: number): Entity | undefined;
  /** By normalised name (the caller normalises). */
  byKey(nameKey: string): Entity | undefined;
  insert(entity: NewEntity): Entity;
  /** Rewrites what a new sighting changes. */
  update(id: number, fields: Pick<Entity, 'type' | 'properties' | 'last_seen'>): void;
  /** Most recently seen first. */
  list(filter?: { type?: EntityType; limit?: number }): Entity[];
  count(filter?: { type?: EntityType }): number;
  names(ids: readonly number[]): Map<number, string>;
  /** The most recently seen project entity whose properties carry this fingerprint. */
  projectByFingerprint(fingerprint: string): Entity | undefined;
  /** Neighbours of every project entity through facts current at `now`, files and other projects left out. */
  projectNeighbours(now: string): ProjectNeighbour[];
}

interface EntityRow extends Omit<Entity, 'properties'> {
  properties: string;
}

const SELECT = 'SELECT id, type, name, properties, created_at, last_seen FROM graph_entities';

const toEntity = (r: EntityRow): Entity => ({ ...r, properties: parseJsonObject(r.properties) });

const PROJECT_NEIGHBOURS = `SELECT p.id AS project_id, e.id AS entity_id, e.name AS entity_name, e.type AS entity_type, f.relation
  FROM graph_entities p JOIN graph_facts f ON (f.source_id = p.id OR f.target_id = p.id)
    AND ${CURRENT}
  JOIN graph_entities e ON e.id = CASE WHEN f.source_id = p.id THEN f.target_id ELSE f.source_id END
  WHERE p.type = 'project' AND e.type NOT IN ('file', 'project')`;

export function createEntityRepository(db: Db): EntityRepository {
  const one = (where: string, ...params: unknown[]): Entity | undefined => {
    const row = cachedStatement(db, `${SELECT} WHERE ${where}`).get(...params) as EntityRow | undefined;
    return row ? toEntity(row) : undefined;
  };
  return {
    get: (id) => one('id = ?', id),
    byKey: (nameKey) => one('name_key = ?', nameKey),
    insert(e) {
      const info = cachedStatement(
        db,
        'INSERT INTO graph_entities (type, name, name_key, properties, created_at, last_seen) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(e.type, e.name, e.name_key, JSON.stringify(e.properties), e.created_at, e.created_at);
      return one('id = ?', Number(info.lastInsertRowid)) as Entity;
    },
    update(id, fields) {
      cachedStatement(db, 'UPDATE graph_entities SET type = ?, properties = ?, last_seen = ? WHERE id = ?').run(
        fields.type,
        JSON.stringify(fields.properties),
        fields.last_seen,
        id,
      );
    },
    list(filter = {}) {
      const where = filter.type ? 'WHERE type = ?' : '';
      const params = filter.type ? [filter.type] : [];
      const rows = cachedStatement(db, `${SELECT} ${where} ORDER BY last_seen DESC, id LIMIT ?`).all(...params, filter.limit ?? -1);
      return (rows as EntityRow[]).map(toEntity);
    },
    count: (filter = {}) =>
      filter.type
        ? (cachedStatement(db, 'SELECT COUNT(*) AS n FROM graph_entities WHERE type = ?').get(filter.type) as { n: number }).n
        : (cachedStatement(db, 'SELECT COUNT(*) AS n FROM graph_entities').get() as { n: number }).n,
    names(ids) {
      if (ids.length === 0) return new Map();
      const rows = cachedStatement(db, 'SELECT id, name FROM graph_entities WHERE id IN (SELECT value FROM json_each(?))').all(
        JSON.stringify([...new Set(ids)]),
      ) as { id: number; name: string }[];
      return new Map(rows.map((r) => [r.id, r.name]));
    },
    projectByFingerprint: (fingerprint) =>
      fingerprint
        ? one("type = 'project' AND json_extract(properties, '$.fingerprint') = ? ORDER BY last_seen DESC LIMIT 1", fingerprint)
        : undefined,
    projectNeighbours: (now) => cachedStatement(db, PROJECT_NEIGHBOURS).all({ now }) as ProjectNeighbour[],
  };
}

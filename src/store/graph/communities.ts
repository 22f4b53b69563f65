/** Communities of entities, recomputed as a whole: the stored set is replaced each time. */
import { type Db, cachedStatement } from '../db.js';
import { parseJson } from '../json.js';
import type { CommunityRecord, NewCommunity } from './records.js';

export interface CommunityRepository {
  /** Replaces every stored community with these; returns them with their ids. */
  replace(communities: readonly NewCommunity[]): CommunityRecord[];
  /** In id order. */
  list(): CommunityRecord[];
  count(): number;
}

interface CommunityRow extends Omit<CommunityRecord, 'entity_ids' | 'facts'> {
  entities: string;
  facts: string;
}

export function createCommunityRepository(db: Db): CommunityRepository {
  return {
    replace(communities) {
      cachedStatement(db, 'DELETE FROM graph_communities').run();
      const insert = cachedStatement(
        db,
        'INSERT INTO graph_communities (name, hub_id, entities, facts, summary, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
      );
      return communities.map((c) => {
        const info = insert.run(c.name, c.hub_id, JSON.stringify(c.entity_ids), JSON.stringify(c.facts), c.summary, c.updated_at);
        return { ...c, id: Number(info.lastInsertRowid) };
      });
    },
    list: () =>
      (
        cachedStatement(
          db,
          'SELECT id, name, hub_id, entities, facts, summary, updated_at FROM graph_communities ORDER BY id',
        ).all() as CommunityRow[]
      ).map(({ entities, facts, ...r }) => ({
        ...r,
        entity_ids: parseJson<number[]>(entities, []),
        facts: parseJson<number[]>(facts, []),
      })),
    count: () => (cachedStatement(db, 'SELECT COUNT(*) AS n FROM graph_communities').get() as { n: number }).n,
  };
}

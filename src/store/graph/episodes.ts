/** Graph episodes: one per session (or other source), linking the entities and facts it produced. */
import { type Db, cachedStatement } from '../db.js';
import type { GraphEpisode, GraphEpisodeInput } from './records.js';

export interface GraphEpisodeRepository {
  /** Creates the episode, or adds links to the one already recorded for this source (replays are harmless); returns its id. */
  record(input: GraphEpisodeInput): number;
  /** Episodes not yet consolidated, from `since` on, oldest first. */
  pending(since: string): GraphEpisode[];
  get(sourceRef: string, sourceType?: string): GraphEpisode | undefined;
  markConsolidated(ids: readonly number[], at: string): void;
  count(): { total: number; consolidated: number };
  /** How many episodes (sessions) produced each of these facts; a fact no episode produced is absent. */
  factSessions(factIds: readonly number[]): Map<number, number>;
}

type EpisodeRow = Omit<GraphEpisode, 'entities' | 'facts'>;

const COLUMNS = 'id, source_type, source_ref, project, timestamp, summary, consolidated_at';

const UPSERT = `INSERT INTO graph_episodes (source_type, source_ref, project, timestamp, summary) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (source_type, source_ref) DO UPDATE SET summary = CASE WHEN excluded.summary != '' THEN excluded.summary ELSE summary END`;

function withLinks(db: Db, rows: EpisodeRow[]): GraphEpisode[] {
  if (rows.length === 0) return [];
  const ids = JSON.stringify(rows.map((r) => r.id));
  const links = (table: string, column: string) =>
    cachedStatement(db, `SELECT episode_id, ${column} FROM ${table} WHERE episode_id IN (SELECT value FROM json_each(?))`, {
      raw: true,
    }).all(ids) as [number, number][];
  const byId = new Map(rows.map((r) => [r.id, { ...r, entities: [] as number[], facts: [] as number[] }]));
  for (const [episode, entity] of links('graph_episode_entities', 'entity_id')) byId.get(episode)?.entities.push(entity);
  for (const [episode, fact] of links('graph_episode_facts', 'fact_id')) byId.get(episode)?.facts.push(fact);
  return [...byId.values()];
}

export function createGraphEpisodeRepository(db: Db): GraphEpisodeRepository {
  return {
    record(input) {
      const sourceType = input.sourceType ?? 'session';
      cachedStatement(db, UPSERT).run(sourceType, input.sourceRef, input.project ?? '', input.timestamp, input.summary ?? '');
      const { id } = cachedStatement(db, 'SELECT id FROM graph_episodes WHERE source_type = ? AND source_ref = ?').get(
        sourceType,
        input.sourceRef,
      ) as { id: number };
      const linkEntity = cachedStatement(db, 'INSERT OR IGNORE INTO graph_episode_entities (episode_id, entity_id) VALUES (?, ?)');
      for (const e of new Set(input.entityIds)) linkEntity.run(id, e);
      const linkFact = cachedStatement(db, 'INSERT OR IGNORE INTO graph_episode_facts (episode_id, fact_id) VALUES (?, ?)');
      for (const f of new Set(input.factIds)) linkFact.run(id, f);
      return id;
    },
    pending: (since) =>
      withLinks(
        db,
        cachedStatement(
          db,
          `SELECT ${COLUMNS} FROM graph_episodes WHERE consolidated_at IS NULL AND timestamp >= ? ORDER BY timestamp, id`,
        ).all(since) as EpisodeRow[],
      ),
    get: (sourceRef, sourceType = 'session') =>
      withLinks(
        db,
        cachedStatement(db, `SELECT ${COLUMNS} FROM graph_episodes WHERE source_type = ? AND source_ref = ?`).all(
          sourceType,
          sourceRef,
        ) as EpisodeRow[],
      )[0],
    markConsolidated(ids, at) {
      const mark = cachedStatement(db, 'UPDATE graph_episodes SET consolidated_at = ? WHERE id = ? AND consolidated_at IS NULL');
      for (const id of ids) mark.run(at, id);
    },
    count: () =>
      cachedStatement(db, 'SELECT COUNT(*) AS total, COUNT(consolidated_at) AS consolidated FROM graph_episodes').get() as {
        total: number;
        consolidated: number;
      },
    factSessions(factIds) {
      if (factIds.length === 0) return new Map();
      const rows = cachedStatement(
        db,
        'SELECT fact_id, COUNT(*) FROM graph_episode_facts WHERE fact_id IN (SELECT value FROM json_each(?)) GROUP BY fact_id',
        { raw: true },
      ).all(JSON.stringify(factIds)) as [number, number][];
      return new Map(rows);
    },
  };
}

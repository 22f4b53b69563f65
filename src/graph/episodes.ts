/** Episode references: one per session (or other source), linking the entities and facts it produced. */
import type { Db } from '../store/db.js';

export interface Episode {
  id: number;
  source_type: string;
  source_ref: string;
  project: string;
  timestamp: string;
  summary: string;
  consolidated_at: string | null;
  entities: number[];
  facts: number[];
}

export interface EpisodeInput {
  sourceType?: string;
  sourceRef: string;
  project?: string;
  timestamp: string;
  summary?: string;
  entityIds: readonly number[];
  factIds: readonly number[];
}

/** Creates the episode, or adds links to the one already recorded for this source (replays are harmless). */
export function recordEpisode(db: Db, input: EpisodeInput): number {
  const sourceType = input.sourceType ?? 'session';
  db.prepare(
    `INSERT INTO graph_episodes (source_type, source_ref, project, timestamp, summary) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (source_type, source_ref) DO UPDATE SET summary = CASE WHEN excluded.summary != '' THEN excluded.summary ELSE summary END`,
  ).run(sourceType, input.sourceRef, input.project ?? '', input.timestamp, input.summary ?? '');
  const { id } = db.prepare('SELECT id FROM graph_episodes WHERE source_type = ? AND source_ref = ?').get(sourceType, input.sourceRef) as {
    id: number;
  };
  const linkEntity = db.prepare('INSERT OR IGNORE INTO graph_episode_entities (episode_id, entity_id) VALUES (?, ?)');
  for (const e of new Set(input.entityIds)) linkEntity.run(id, e);
  const linkFact = db.prepare('INSERT OR IGNORE INTO graph_episode_facts (episode_id, fact_id) VALUES (?, ?)');
  for (const f of new Set(input.factIds)) linkFact.run(id, f);
  return id;
}

function withLinks(db: Db, rows: Omit<Episode, 'entities' | 'facts'>[]): Episode[] {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id).join(',');
  const entities = db.prepare(`SELECT episode_id, entity_id FROM graph_episode_entities WHERE episode_id IN (${ids})`).all() as {
    episode_id: number;
    entity_id: number;
  }[];
  const facts = db.prepare(`SELECT episode_id, fact_id FROM graph_episode_facts WHERE episode_id IN (${ids})`).all() as {
    episode_id: number;
    fact_id: number;
  }[];
  const byId = new Map(rows.map((r) => [r.id, { ...r, entities: [] as number[], facts: [] as number[] }]));
  for (const l of entities) byId.get(l.episode_id)?.entities.push(l.entity_id);
  for (const l of facts) byId.get(l.episode_id)?.facts.push(l.fact_id);
  return [...byId.values()];
}

const COLUMNS = 'id, source_type, source_ref, project, timestamp, summary, consolidated_at';

/** Episodes not yet consolidated, from `since` on, oldest first. */
export function pendingEpisodes(db: Db, since: string): Episode[] {
  const rows = db
    .prepare(`SELECT ${COLUMNS} FROM graph_episodes WHERE consolidated_at IS NULL AND timestamp >= ? ORDER BY timestamp, id`)
    .all(since);
  return withLinks(db, rows as Omit<Episode, 'entities' | 'facts'>[]);
}

export function getEpisode(db: Db, sourceRef: string, sourceType = 'session'): Episode | undefined {
  const rows = db.prepare(`SELECT ${COLUMNS} FROM graph_episodes WHERE source_type = ? AND source_ref = ?`).all(sourceType, sourceRef);
  return withLinks(db, rows as Omit<Episode, 'entities' | 'facts'>[])[0];
}

export function markConsolidated(db: Db, ids: readonly number[], at: string): void {
  const stmt = db.prepare('UPDATE graph_episodes SET consolidated_at = ? WHERE id = ? AND consolidated_at IS NULL');
  for (const id of ids) stmt.run(at, id);
}

export function countEpisodes(db: Db): { total: number; consolidated: number } {
  return db.prepare('SELECT COUNT(*) AS total, COUNT(consolidated_at) AS consolidated FROM graph_episodes').get() as {
    total: number;
    consolidated: number;
  };
}

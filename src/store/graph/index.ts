/**
 * The knowledge graph's records: entities, bi-temporal facts, the ACT-R access log, graph
 * episodes and communities (facts and entities are searched as documents of the index).
 * SQL only: what to write and when is the graph's rule. Reads take a structured
 * `FactFilter` (instants as ISO strings), never SQL.
 */
import type { Db } from '../db.js';
import { type AccessRepository, createAccessRepository } from './accesses.js';
import { type CommunityRepository, createCommunityRepository } from './communities.js';
import { type EntityRepository, createEntityRepository } from './entities.js';
import { type GraphEpisodeRepository, createGraphEpisodeRepository } from './episodes.js';
import { type FactRepository, createFactRepository } from './facts.js';
import { type GraphViewRepository, createGraphViewRepository } from './view.js';

export type { AccessRepository } from './accesses.js';
export type { CommunityRepository } from './communities.js';
export type { EntityRepository, ProjectNeighbour } from './entities.js';
export type { GraphEpisodeRepository } from './episodes.js';
export type { FactRepository, FactTotals } from './facts.js';
export type { FactFilter, FactOrder, FactTime } from './filter.js';
export type { Edge, EntityBrief, FactEnds, GraphViewRepository, MemoryTypeCount } from './view.js';
export type * from './records.js';

export interface GraphRepository {
  readonly entities: EntityRepository;
  readonly facts: FactRepository;
  /** The ACT-R access log of facts. */
  readonly accesses: AccessRepository;
  /** Graph episodes (what a session produced), not the store's notable one-offs. */
  readonly episodes: GraphEpisodeRepository;
  readonly communities: CommunityRepository;
  /** Whole-graph reads for the dashboard's graph view. */
  readonly view: GraphViewRepository;
}

export function createGraphRepository(db: Db): GraphRepository {
  return {
    entities: createEntityRepository(db),
    facts: createFactRepository(db),
    accesses: createAccessRepository(db),
    episodes: createGraphEpisodeRepository(db),
    communities: createCommunityRepository(db),
    view: createGraphViewRepository(db),
  };
}

/**
 * The knowledge graph's records: entities, bi-temporal facts, their vectors, the ACT-R
 * access log, graph episodes and communities. SQL only: what to write and when is the
 * graph's rule. Reads take a structured `FactFilter` (instants as ISO strings), never SQL.
 */
import type { Db } from '../db.js';
import { type AccessRepository, createAccessRepository } from './accesses.js';
import { type CommunityRepository, createCommunityRepository } from './communities.js';
import { type EntityRepository, createEntityRepository } from './entities.js';
import { type GraphEpisodeRepository, createGraphEpisodeRepository } from './episodes.js';
import { type FactRepository, createFactRepository } from './facts.js';
import { type GraphVectorRepository, createGraphVectorRepository } from './vectors.js';

export type { AccessRepository } from './accesses.js';
export type { CommunityRepository } from './communities.js';
export type { EntityRepository, ProjectNeighbour } from './entities.js';
export type { GraphEpisodeRepository } from './episodes.js';
export type { FactRepository, FactTotals, TextMatch } from './facts.js';
export type { FactFilter, FactOrder, FactTime } from './filter.js';
export type * from './records.js';
export type { FactVectorRef, GraphVectorRepository, UnembeddedEntity, UnembeddedFact } from './vectors.js';

export interface GraphRepository {
  readonly entities: EntityRepository;
  readonly facts: FactRepository;
  /** Vectors of facts and entities, per model. */
  readonly vectors: GraphVectorRepository;
  /** The ACT-R access log of facts. */
  readonly accesses: AccessRepository;
  /** Graph episodes (what a session produced), not the store's notable one-offs. */
  readonly episodes: GraphEpisodeRepository;
  readonly communities: CommunityRepository;
}

export function createGraphRepository(db: Db): GraphRepository {
  return {
    entities: createEntityRepository(db),
    facts: createFactRepository(db),
    vectors: createGraphVectorRepository(db),
    accesses: createAccessRepository(db),
    episodes: createGraphEpisodeRepository(db),
    communities: createCommunityRepository(db),
  };
}

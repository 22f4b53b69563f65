/** The knowledge graph's records: entities, bi-temporal facts, episodes, accesses, communities. SQL only. */
import type { Db } from '../db.js';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled as the graph moves its SQL here
export interface GraphRepository {}

export function createGraphRepository(_db: Db): GraphRepository {
  return {};
}

/**
 * The knowledge graph's records as the store hands them out: plain objects, ISO-8601
 * instants, parsed JSON. Bi-temporal facts: valid_at / invalid_at say when a fact was true
 * in the world; created_at / expired_at say when the graph held it.
 */
import type { EntityType, MemoryType, Relation, RelationCategory } from '../../core/graph-vocabulary.js';

export interface Entity {
  id: number;
  type: EntityType;
  name: string;
  properties: Record<string, unknown>;
  created_at: string;
  last_seen: string;
}

/** An entity to create; `name_key` is the normalised name entities are deduplicated by. */
export interface NewEntity {
  type: EntityType;
  name: string;
  name_key: string;
  properties: Record<string, unknown>;
  created_at: string;
}

export type Origin = 'manual' | 'deterministic' | 'llm' | 'dream';
export type ExpiredReason = 'superseded' | 'contradicted' | 'duplicate' | 'decayed' | 'retracted';

export interface HistoryEntry {
  description: string;
  confidence: number;
  reconsolidated_at: string;
}

export interface Fact {
  id: number;
  source_id: number;
  target_id: number;
  source: string;
  target: string;
  relation: Relation;
  category: RelationCategory;
  description: string;
  memory_type: MemoryType;
  confidence: number;
  valid_at: string;
  invalid_at: string | null;
  created_at: string;
  expired_at: string | null;
  superseded_by: number | null;
  expired_reason: ExpiredReason | null;
  emotional_weight: number;
  reconsolidation_count: number;
  history: HistoryEntry[];
  project: string;
  source_session: string;
  origin: Origin;
  metadata: Record<string, unknown>;
}

/** The columns a new fact is written with. */
export type NewFact = Pick<
  Fact,
  | 'source_id'
  | 'target_id'
  | 'relation'
  | 'category'
  | 'description'
  | 'memory_type'
  | 'confidence'
  | 'valid_at'
  | 'created_at'
  | 'emotional_weight'
  | 'project'
  | 'source_session'
  | 'origin'
  | 'metadata'
> & { invalid_at?: string | null };

/** What a fact's numbers say, without its text (for metrics and sweeps over many facts). */
export type FactSummary = Pick<
  Fact,
  'id' | 'source_id' | 'target_id' | 'memory_type' | 'confidence' | 'emotional_weight' | 'reconsolidation_count'
>;

/** How a fact closes. Without `invalidAt` only the graph dimension closes (a fact merely forgotten). */
export interface FactClose {
  expiredAt: string;
  reason: ExpiredReason;
  invalidAt?: string;
  supersededBy?: number;
  /** Who closed it by hand (cli, mcp, dashboard), kept in its metadata as closed_by. */
  closedBy?: string;
}

export type AccessKind = 'create' | 'retrieval' | 'reinforce';

/** One reference per session (or other source), linking the entities and facts it produced. */
export interface GraphEpisode {
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

export interface GraphEpisodeInput {
  sourceType?: string;
  sourceRef: string;
  project?: string;
  timestamp: string;
  summary?: string;
  entityIds: readonly number[];
  factIds: readonly number[];
}

/** A community as stored: its members as entity ids, hub first. */
export interface CommunityRecord {
  id: number;
  name: string;
  hub_id: number;
  entity_ids: number[];
  facts: number[];
  summary: string;
  updated_at: string;
}

export type NewCommunity = Omit<CommunityRecord, 'id'>;

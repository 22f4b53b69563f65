/** What an extraction (deterministic or by a model) hands to the graph builder. */
import type { EntityType, Relation } from '../ontology.js';

export interface ExtractedEntity {
  name: string;
  type: EntityType;
  properties?: Record<string, unknown>;
}

export interface ExtractedFact {
  source: ExtractedEntity;
  target: ExtractedEntity;
  relation: Relation;
  description: string;
  confidence: number;
  /** When the fact became true, when the session says so (an event's time). */
  validAt?: string;
  /** A user correction (weighs 1.5 in activation). */
  correction?: boolean;
  metadata?: Record<string, unknown>;
}

interface Contradiction {
  factId: number;
  /** Index into the extraction's facts of the fact that replaces it, if any. */
  replacedBy?: number;
  reason: string;
}

export interface ExtractedGraph {
  facts: ExtractedFact[];
  contradictions: Contradiction[];
}

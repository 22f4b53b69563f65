/** The Neural section's API: the graph as of a date, a fact, an entity's timeline. */
import { api } from './api.js';

export interface NeuralNode {
  id: number;
  name: string;
  type: string;
  degree: number;
  activation: number | null;
  recent: boolean;
  community: number | null;
  match: boolean;
}

export interface NeuralLink {
  id: number;
  source: number;
  target: number;
  relation: string;
  confidence: number;
}

/** Facts per memory zone (recent: the last 48 hours), entities and communities. */
export type Tiers = Record<'recent' | 'episodic' | 'semantic' | 'procedural' | 'entities' | 'entities_stored' | 'communities', number>;

export interface GraphViewData {
  at: string;
  range: { oldest: string; newest: string } | null;
  nodes: NeuralNode[];
  links: NeuralLink[];
  total_nodes: number;
  total_links: number;
  hidden_communities: { id: number; name: string; size: number; hidden: number }[];
  tiers: Tiers;
}

export interface GraphFact {
  id: number;
  source_id: number;
  target_id: number;
  source: string;
  target: string;
  relation: string;
  description: string;
  memory_type: string;
  confidence: number;
  valid_at: string;
  invalid_at: string | null;
  created_at: string;
  expired_at: string | null;
  expired_reason: string | null;
  reconsolidation_count: number;
  origin: string;
}

export interface ViewQuery {
  at?: string;
  q?: string;
  expand: readonly number[];
}

export function loadView(query: ViewQuery): Promise<GraphViewData> {
  const params = new URLSearchParams();
  if (query.at) params.set('at', query.at);
  if (query.q) params.set('q', query.q);
  if (query.expand.length) params.set('expand', query.expand.join(','));
  return api<GraphViewData>(`/api/neural/view?${params.toString()}`);
}

export const loadFact = (id: number) => api<GraphFact>(`/api/neural/facts/${id}`);

export const loadTimeline = (entityId: number) => api<{ facts: GraphFact[]; count: number }>(`/api/neural/entities/${entityId}/timeline`);

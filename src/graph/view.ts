/**
 * The knowledge graph as the dashboard draws it at an instant: a node per entity that some
 * fact held then touches, sized by degree and ranked by ACT-R activation, and an edge per
 * fact. Pure: the operation reads the store and hands the rows here.
 *
 * An entity is as active as all its facts together: its activation is ln(Σ e^A_f) over its
 * facts' activations A_f = ln(Σ t^-0.5), i.e. ACT-R over the union of their accesses (with
 * each fact's emotional weight applied first).
 *
 * Past ~2,000 nodes a force layout stops being readable and fast, so only the most
 * activated are shown; each community says how many of its members that hides, and asking
 * for a community adds all of its members.
 */
import type { CommunityRecord, Edge, EntityBrief } from '../store/graph/index.js';
import type { EntityType, Relation } from './ontology.js';
import { activation } from './activation.js';

/** Nodes created this recently (before the instant shown) are marked new. */
export const RECENT_MS = 48 * 3_600_000;

export interface ViewNode {
  id: number;
  name: string;
  type: EntityType;
  /** Facts held at the instant that touch it. */
  degree: number;
  /** ACT-R activation; null when none of its facts was ever accessed. */
  activation: number | null;
  recent: boolean;
  community: number | null;
  /** Its name matches the search. */
  match: boolean;
}

export interface ViewLink {
  id: number;
  source: number;
  target: number;
  relation: Relation;
  confidence: number;
}

export interface HiddenCommunity {
  id: number;
  name: string;
  size: number;
  hidden: number;
}

export interface Tiers {
  /** Facts recorded in the 48 hours before the instant: working memory. */
  recent: number;
  episodic: number;
  semantic: number;
  procedural: number;
  entities: number;
  communities: number;
}

export interface GraphView {
  nodes: ViewNode[];
  links: ViewLink[];
  /** Nodes and facts held at the instant (shown or not). */
  total_nodes: number;
  total_links: number;
  hidden_communities: HiddenCommunity[];
  tiers: Tiers;
}

export interface ViewInput {
  edges: readonly Edge[];
  entities: ReadonlyMap<number, EntityBrief>;
  accessTimes: ReadonlyMap<number, readonly string[]>;
  communities: readonly CommunityRecord[];
  at: Date;
  limit: number;
  q?: string;
  expand?: readonly number[];
}

/** ln(Σ e^x) without overflow; -Infinity for nothing. */
export function logSumExp(values: readonly number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max) max = v;
  if (!Number.isFinite(max)) return max;
  let sum = 0;
  for (const v of values) if (Number.isFinite(v)) sum += Math.exp(v - max);
  return max + Math.log(sum);
}

/** Each entity's degree and activation over the edges. */
function entityStats(input: ViewInput): Map<number, { degree: number; parts: number[] }> {
  const stats = new Map<number, { degree: number; parts: number[] }>();
  for (const e of input.edges) {
    const a = activation(input.accessTimes.get(e.id) ?? [], input.at, e.emotional_weight);
    for (const id of e.source_id === e.target_id ? [e.source_id] : [e.source_id, e.target_id]) {
      const s = stats.get(id) ?? { degree: 0, parts: [] };
      s.degree += 1;
      s.parts.push(a);
      stats.set(id, s);
    }
  }
  return stats;
}

function tiersOf(input: ViewInput, entities: number): Tiers {
  const since = new Date(input.at.getTime() - RECENT_MS).toISOString();
  const tiers: Tiers = { recent: 0, episodic: 0, semantic: 0, procedural: 0, entities, communities: input.communities.length };
  for (const e of input.edges) {
    tiers[e.memory_type] += 1;
    if (e.created_at > since) tiers.recent += 1;
  }
  return tiers;
}

/** With a search: the entities whose name contains it and their neighbours; else every node. */
function candidatesOf(input: ViewInput, nodes: Map<number, ViewNode>): ViewNode[] {
  const q = input.q?.trim().toLowerCase();
  if (!q) return [...nodes.values()];
  for (const n of nodes.values()) n.match = n.name.toLowerCase().includes(q);
  const keep = new Set([...nodes.values()].filter((n) => n.match).map((n) => n.id));
  const matched = new Set(keep);
  for (const e of input.edges) {
    if (matched.has(e.source_id)) keep.add(e.target_id);
    if (matched.has(e.target_id)) keep.add(e.source_id);
  }
  return [...keep].map((id) => nodes.get(id) as ViewNode);
}

/** Matches first, then the most activated, the best connected, the oldest id. */
const byRank = (a: ViewNode, b: ViewNode): number =>
  Number(b.match) - Number(a.match) || (b.activation ?? -Infinity) - (a.activation ?? -Infinity) || b.degree - a.degree || a.id - b.id;

function hiddenCommunities(communities: readonly CommunityRecord[], candidates: readonly ViewNode[], shown: ReadonlySet<number>) {
  const hidden = new Map<number, number>();
  for (const n of candidates) if (n.community !== null && !shown.has(n.id)) hidden.set(n.community, (hidden.get(n.community) ?? 0) + 1);
  return communities
    .filter((c) => (hidden.get(c.id) ?? 0) > 0)
    .map((c) => ({ id: c.id, name: c.name, size: c.entity_ids.length, hidden: hidden.get(c.id) as number }))
    .sort((a, b) => b.hidden - a.hidden || a.id - b.id);
}

export function buildGraphView(input: ViewInput): GraphView {
  const since = new Date(input.at.getTime() - RECENT_MS).toISOString();
  const communityOf = new Map<number, number>();
  for (const c of input.communities) for (const id of c.entity_ids) if (!communityOf.has(id)) communityOf.set(id, c.id);
  const nodes = new Map<number, ViewNode>();
  for (const [id, s] of entityStats(input)) {
    const e = input.entities.get(id);
    if (!e) continue;
    const a = logSumExp(s.parts);
    nodes.set(id, {
      ...{ id, name: e.name, type: e.type, degree: s.degree, activation: Number.isFinite(a) ? Math.round(a * 1000) / 1000 : null },
      ...{ recent: e.created_at > since, community: communityOf.get(id) ?? null, match: false },
    });
  }
  const candidates = candidatesOf(input, nodes).sort(byRank);
  const expand = new Set(input.expand ?? []);
  const shown = new Set(candidates.slice(0, input.limit).map((n) => n.id));
  for (const n of candidates) if (n.community !== null && expand.has(n.community)) shown.add(n.id);
  const links = input.edges
    .filter((e) => shown.has(e.source_id) && shown.has(e.target_id))
    .map((e) => ({ id: e.id, source: e.source_id, target: e.target_id, relation: e.relation, confidence: e.confidence }));
  return {
    nodes: candidates.filter((n) => shown.has(n.id)),
    links,
    total_nodes: nodes.size,
    total_links: input.edges.length,
    hidden_communities: hiddenCommunities(input.communities, candidates, shown),
    tiers: tiersOf(input, nodes.size),
  };
}

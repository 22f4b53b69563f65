/**
 * The knowledge graph as the dashboard draws it at an instant: a node per entity that some
 * fact held then touches, sized by degree and ranked by ACT-R activation, and an edge per
 * fact. Pure: the operation reads the store and hands the rows here.
 *
 * An entity is as active as all its facts together: its activation is ln(Σ e^A_f) over its
 * facts' activations A_f = ln(Σ t^-0.5), i.e. ACT-R over the union of their accesses (with
 * each fact's emotional weight applied first). A_f stays small (at most 100 accesses are
 * kept per fact), so the sum of e^A_f cannot overflow.
 *
 * Past ~2,000 nodes a force layout stops being readable and fast, so only the most
 * activated are shown; each community says how many of its members that hides, and asking
 * for a community adds all of its members.
 */
import type { CommunityRecord, EntityBrief, FactEnds, MemoryTypeCount } from '../store/graph/index.js';
import type { EntityType, Relation } from './ontology.js';
import { activation } from './activation.js';

/**
 * Nodes with a fact that became true this recently (before the instant shown) are marked
 * new. Valid time, not recording time: history imported today happened months ago.
 */
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
  /** Facts that became true in the 48 hours before the instant: working memory. */
  recent: number;
  episodic: number;
  semantic: number;
  procedural: number;
  /** Entities with a fact true at the instant (what the graph shows). */
  entities: number;
  /** Every entity stored, as the Memory page counts them. */
  entities_stored: number;
  communities: number;
}

export interface GraphView {
  nodes: ViewNode[];
  /** The facts between the nodes shown, to be drawn as links. */
  link_ids: number[];
  /** Nodes and facts held at the instant (shown or not). */
  total_nodes: number;
  total_links: number;
  hidden_communities: HiddenCommunity[];
}

export interface ViewInput {
  edges: readonly FactEnds[];
  entities: ReadonlyMap<number, EntityBrief>;
  accessTimes: ReadonlyMap<number, readonly string[]>;
  communities: readonly CommunityRecord[];
  at: Date;
  limit: number;
  q?: string;
  expand?: readonly number[];
}

interface EntityStats {
  degree: number;
  /** Σ e^A over its facts' activations A. */
  strength: number;
  /** When the newest of its facts became true. */
  newest: string;
}

/** Each entity's degree and summed activation over the edges. */
function entityStats(input: ViewInput): Map<number, EntityStats> {
  const stats = new Map<number, EntityStats>();
  const add = (id: number, strength: number, validAt: string) => {
    const s = stats.get(id);
    if (s) {
      s.degree += 1;
      s.strength += strength;
      if (validAt > s.newest) s.newest = validAt;
    } else stats.set(id, { degree: 1, strength, newest: validAt });
  };
  for (const [id, source, target, weight, validAt] of input.edges) {
    // e^-Infinity is 0: a fact never accessed adds a degree, no activation.
    const strength = Math.exp(activation(input.accessTimes.get(id) ?? [], input.at, weight));
    add(source, strength, validAt);
    if (target !== source) add(target, strength, validAt);
  }
  return stats;
}

/** The tier map's counts from the facts' memory types. Pure. */
export function tiersOf(counts: readonly MemoryTypeCount[], entities: { shown: number; stored: number }, communities: number): Tiers {
  const tiers: Tiers = {
    recent: 0,
    episodic: 0,
    semantic: 0,
    procedural: 0,
    entities: entities.shown,
    entities_stored: entities.stored,
    communities,
  };
  for (const c of counts) {
    tiers[c.memory_type] += c.n;
    tiers.recent += c.recent;
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
  for (const [, source, target] of input.edges) {
    if (matched.has(source)) keep.add(target);
    if (matched.has(target)) keep.add(source);
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
    const activation = s.strength > 0 ? Math.round(Math.log(s.strength) * 1000) / 1000 : null;
    nodes.set(id, {
      ...{ id, name: e.name, type: e.type, degree: s.degree, activation },
      ...{ recent: s.newest > since, community: communityOf.get(id) ?? null, match: false },
    });
  }
  const candidates = candidatesOf(input, nodes).sort(byRank);
  const expand = new Set(input.expand ?? []);
  const shown = new Set(candidates.slice(0, input.limit).map((n) => n.id));
  for (const n of candidates) if (n.community !== null && expand.has(n.community)) shown.add(n.id);
  return {
    nodes: candidates.filter((n) => shown.has(n.id)),
    link_ids: input.edges.filter(([, source, target]) => shown.has(source) && shown.has(target)).map(([id]) => id),
    total_nodes: nodes.size,
    total_links: input.edges.length,
    hidden_communities: hiddenCommunities(input.communities, candidates, shown),
  };
}

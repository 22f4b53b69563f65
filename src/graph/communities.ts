/**
 * Communities of entities: label propagation over the current facts, 5
 * iterations or until stable, named after their hub (most connected member).
 *
 * Label propagation needs a deterministic tie-break to be testable. Nodes update in
 * ascending degree (the periphery first), and a tie keeps the node's own label when it is
 * among the best, else takes the label of the best-connected neighbour carrying one of
 * them. Peripheral nodes thus rally to their local hub before bridges move, so two dense
 * groups joined by one edge stay two communities.
 */
import type { NewCommunity } from '../store/graph/index.js';
import type { Store } from '../store/store.js';

const LABEL_PROPAGATION_ITERATIONS = 5;
const MIN_COMMUNITY_SIZE = 2;

type Edge = readonly [number, number, number?];

/** node -> label (a node id); isolated nodes keep their own. */
export function labelPropagation(
  nodes: readonly number[],
  edges: readonly Edge[],
  iterations = LABEL_PROPAGATION_ITERATIONS,
): Map<number, number> {
  const adj = new Map<number, Map<number, number>>(nodes.map((n) => [n, new Map()]));
  for (const [a, b, w = 1] of edges) {
    if (a === b || !adj.has(a) || !adj.has(b)) continue;
    adj.get(a)?.set(b, (adj.get(a)?.get(b) ?? 0) + w);
    adj.get(b)?.set(a, (adj.get(b)?.get(a) ?? 0) + w);
  }
  const degree = (n: number): number => [...(adj.get(n)?.values() ?? [])].reduce((s, w) => s + w, 0);
  const order = [...nodes].sort((a, b) => degree(a) - degree(b) || a - b);
  const label = new Map(nodes.map((n) => [n, n]));
  for (let i = 0; i < iterations; i++) {
    let changed = false;
    for (const node of order) {
      const votes = new Map<number, number>();
      for (const [neighbour, w] of adj.get(node) ?? []) {
        const l = label.get(neighbour) as number;
        votes.set(l, (votes.get(l) ?? 0) + w);
      }
      if (votes.size === 0) continue;
      const max = Math.max(...votes.values());
      const best = new Set([...votes.entries()].filter(([, v]) => v === max).map(([l]) => l));
      const current = label.get(node) as number;
      if (best.has(current)) continue;
      const carriers = [...(adj.get(node)?.keys() ?? [])].filter((n) => best.has(label.get(n) as number));
      carriers.sort((a, b) => degree(b) - degree(a) || (label.get(a) as number) - (label.get(b) as number));
      const next = label.get(carriers[0] as number) as number;
      label.set(node, next);
      changed = true;
    }
    if (!changed) break;
  }
  return label;
}

interface Community {
  id: number;
  name: string;
  hub_id: number;
  entities: string[];
  entity_ids: number[];
  facts: number[];
  summary: string;
  updated_at: string;
}

/** The communities of these facts' entities, largest first. Pure. */
function groupCommunities(
  facts: readonly { id: number; source_id: number; target_id: number }[],
  names: ReadonlyMap<number, string>,
  at: string,
): NewCommunity[] {
  const nodes = [...new Set(facts.flatMap((f) => [f.source_id, f.target_id]))].sort((a, b) => a - b);
  const labels = labelPropagation(
    nodes,
    facts.map((f) => [f.source_id, f.target_id] as const),
  );
  const groups = new Map<number, number[]>();
  for (const n of nodes) {
    const l = labels.get(n) as number;
    const g = groups.get(l);
    if (g) g.push(n);
    else groups.set(l, [n]);
  }
  const communities: NewCommunity[] = [];
  for (const members of groups.values()) {
    if (members.length < MIN_COMMUNITY_SIZE) continue;
    const inside = new Set(members);
    const internal = facts.filter((f) => inside.has(f.source_id) && inside.has(f.target_id));
    const degree = new Map<number, number>();
    for (const f of internal) for (const e of [f.source_id, f.target_id]) degree.set(e, (degree.get(e) ?? 0) + 1);
    const ranked = [...members].sort(
      (a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || (names.get(a) ?? '').localeCompare(names.get(b) ?? ''),
    );
    const hub = ranked[0] as number;
    const entityNames = ranked.map((id) => names.get(id) ?? String(id));
    const shown = entityNames.slice(0, 8).join(', ') + (entityNames.length > 8 ? ', ...' : '');
    communities.push({
      name: names.get(hub) ?? String(hub),
      hub_id: hub,
      entity_ids: ranked,
      facts: internal.map((f) => f.id),
      summary: `Community centered on ${names.get(hub)} with ${members.length} entities: ${shown}`,
      updated_at: at,
    });
  }
  const size = (c: NewCommunity) => c.entity_ids.length;
  return communities.sort((a, b) => size(b) - size(a) || a.name.localeCompare(b.name));
}

/** With its members' names, hub first. */
const named = (c: NewCommunity & { id: number }, names: ReadonlyMap<number, string>): Community => ({
  ...c,
  entities: c.entity_ids.map((id) => names.get(id) ?? String(id)),
});

/** Recomputes every community from the current facts and stores them, replacing the previous set. */
export function detectCommunities(store: Store): Community[] {
  const now = store.clock.now().toISOString();
  const facts = store.graph.facts.summaries({ time: { now } }).filter((f) => f.source_id !== f.target_id);
  const names = store.graph.entities.names(facts.flatMap((f) => [f.source_id, f.target_id]));
  const communities = groupCommunities(facts, names, now);
  return store.transaction(() => store.graph.communities.replace(communities)).map((c) => named(c, names));
}

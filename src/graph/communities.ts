/**
 * Communities of entities (seed 003): label propagation over the current facts, 5
 * iterations or until stable, named after their hub (most connected member).
 *
 * Label propagation needs a deterministic tie-break to be testable. Nodes update in
 * ascending degree (the periphery first), and a tie keeps the node's own label when it is
 * among the best, else takes the label of the best-connected neighbour carrying one of
 * them. Peripheral nodes thus rally to their local hub before bridges move, so two dense
 * groups joined by one edge stay two communities.
 */
import { writeTx } from '../store/db.js';
import type { Store } from '../store/store.js';
import { CURRENT } from './facts.js';

export const LABEL_PROPAGATION_ITERATIONS = 5;
export const MIN_COMMUNITY_SIZE = 2;

export type Edge = readonly [number, number, number?];

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

export interface Community {
  id: number;
  name: string;
  hub_id: number;
  entities: string[];
  entity_ids: number[];
  facts: number[];
  summary: string;
  updated_at: string;
}

/** Recomputes every community from the current facts and stores them, replacing the previous set. */
export function detectCommunities(store: Store): Community[] {
  const now = store.clock.now().toISOString();
  const facts = store.db
    .prepare(`SELECT f.id, f.source_id, f.target_id FROM graph_facts f WHERE ${CURRENT} AND f.source_id != f.target_id`)
    .all({ now }) as { id: number; source_id: number; target_id: number }[];
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
  const names = new Map(
    (
      store.db.prepare(`SELECT id, name FROM graph_entities WHERE id IN (${nodes.join(',') || 'NULL'})`).all() as {
        id: number;
        name: string;
      }[]
    ).map((r) => [r.id, r.name]),
  );
  const communities: Omit<Community, 'id'>[] = [];
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
      entities: entityNames,
      entity_ids: ranked,
      facts: internal.map((f) => f.id),
      summary: `Community centered on ${names.get(hub)} with ${members.length} entities: ${shown}`,
      updated_at: now,
    });
  }
  communities.sort((a, b) => b.entities.length - a.entities.length || a.name.localeCompare(b.name));
  return writeTx(store.db, () => {
    store.db.prepare('DELETE FROM graph_communities').run();
    const insert = store.db.prepare(
      'INSERT INTO graph_communities (name, hub_id, entities, facts, summary, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    return communities.map((c) => ({
      ...c,
      id: Number(
        insert.run(c.name, c.hub_id, JSON.stringify(c.entity_ids), JSON.stringify(c.facts), c.summary, c.updated_at).lastInsertRowid,
      ),
    }));
  });
}

export function listCommunities(store: Store): Community[] {
  const rows = store.db
    .prepare('SELECT id, name, hub_id, entities, facts, summary, updated_at FROM graph_communities ORDER BY id')
    .all() as {
    id: number;
    name: string;
    hub_id: number;
    entities: string;
    facts: string;
    summary: string;
    updated_at: string;
  }[];
  return rows.map((r) => {
    const ids = JSON.parse(r.entities) as number[];
    const names = new Map(
      (
        store.db.prepare(`SELECT id, name FROM graph_entities WHERE id IN (${ids.join(',') || 'NULL'})`).all() as {
          id: number;
          name: string;
        }[]
      ).map((e) => [e.id, e.name]),
    );
    return { ...r, entity_ids: ids, entities: ids.map((id) => names.get(id) ?? String(id)), facts: JSON.parse(r.facts) as number[] };
  });
}

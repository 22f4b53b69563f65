/** The knowledge graph as the dashboard draws it: what the graph held at a date, capped to the most activated nodes. */
import { z } from 'zod';
import { RECENT_MS, buildGraphView, tiersOf } from '../graph/view.js';
import { instant } from './graph.js';
import { defineOperation } from './operation.js';
import { text, wholeNumber } from './schemas.js';

/** More nodes than this and a force layout in a browser is neither readable nor fast. */
export const DEFAULT_VIEW_NODES = 2_000;
export const MAX_VIEW_NODES = 5_000;

export const graphView = defineOperation({
  name: 'graph.view',
  summary: 'The graph as it was true at a date (default now): the most activated nodes, their facts, hidden communities, tier counts',
  input: z.object({
    at: instant().optional(),
    limit: wholeNumber(1, MAX_VIEW_NODES).default(DEFAULT_VIEW_NODES),
    q: text(200).optional(),
    /** Communities whose every member is added to the nodes shown. */
    expand: z.array(wholeNumber(1), { error: 'must be a list of community ids' }).max(50).default([]),
  }),
  run({ store }, i) {
    const at = i.at ?? store.clock.now().toISOString();
    // What the graph believes was true then. Valid time, not recording time: a session
    // imported today still shows on the day it happened; a fact superseded since still
    // shows at a date inside its validity.
    const filter = { time: { at } } as const;
    const view = store.graph.view;
    const entities = new Map(view.entityBriefs().map((e) => [e.id, e]));
    const communities = store.graph.communities.list();
    const { link_ids, ...shown } = buildGraphView({
      edges: view.ends(filter),
      entities,
      accessTimes: view.accessTimes(at),
      communities,
      at: new Date(at),
      limit: i.limit,
      q: i.q,
      expand: i.expand,
    });
    const links = view
      .edges(link_ids)
      .map((e) => ({ id: e.id, source: e.source_id, target: e.target_id, relation: e.relation, confidence: e.confidence }));
    const since = new Date(Date.parse(at) - RECENT_MS).toISOString();
    const tiers = tiersOf(view.memoryTypes(filter, since), { shown: shown.total_nodes, stored: entities.size }, communities.length);
    return { at, range: view.validRange(), ...shown, links, tiers };
  },
});

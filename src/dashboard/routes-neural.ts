/** The Neural section's routes: the graph as of a date, a fact, an entity's timeline. */
import type { Context, Hono } from 'hono';
import { showFact, timeline } from '../app/graph.js';
import { DEFAULT_VIEW_NODES, MAX_VIEW_NODES, graphView } from '../app/graph-view.js';
import { invoke } from '../app/operation.js';
import type { AppContext } from '../app/operation.js';
import { answer, limitParam } from './respond.js';

/** `expand=3,7` as community ids; anything that is not one is left for the operation to refuse. */
function expandParam(c: Context): unknown[] {
  const raw = c.req.query('expand');
  if (!raw) return [];
  return raw.split(',').map((v) => (/^\d+$/.test(v.trim()) ? Number(v) : v));
}

/** A path parameter as a number when it is one, else as sent (the operation says what is wrong). */
const idParam = (c: Context, name: string): unknown => {
  const v = c.req.param(name) ?? '';
  return /^\d+$/.test(v) ? Number(v) : v;
};

export function neuralRoutes(app: Hono, ctx: AppContext): void {
  app.get('/api/neural/view', (c) =>
    answer(c, () =>
      invoke(graphView, ctx, {
        at: c.req.query('at') || undefined,
        q: c.req.query('q') || undefined,
        limit: limitParam(c, 'limit', DEFAULT_VIEW_NODES, MAX_VIEW_NODES),
        expand: expandParam(c),
      } as never),
    ),
  );
  app.get('/api/neural/facts/:id', (c) => answer(c, () => invoke(showFact, ctx, { id: idParam(c, 'id') } as never)));
  app.get('/api/neural/entities/:id/timeline', (c) => answer(c, () => invoke(timeline, ctx, { entity: c.req.param('id') })));
}

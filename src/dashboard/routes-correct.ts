/**
 * Correcting memory from the dashboard (issue 16): edit, merge, forget, promote and un-promote
 * an instinct; supersede or retract a fact; forget a memory. Every change is a POST (the guard
 * demands the page's Origin for it) that runs the same operation as the CLI, with the source
 * set here, never by the page: the event log says 'dashboard'. A project's facts are read with
 * a GET, for the facts list of the Project view.
 */
import type { Hono } from 'hono';
import type { z } from 'zod';
import { invoke } from '../app/operation.js';
import type { AppContext, Operation } from '../app/operation.js';
import { alias, edit, forget } from '../app/instincts.js';
import { invalidate, supersede } from '../app/graph.js';
import { projectFacts } from '../app/projects.js';
import { promote, unpromote } from '../app/lifecycle.js';
import { deleteMemories } from '../app/memory.js';
import { answer, jsonObject, limitParam } from './respond.js';

/** A POST whose JSON body is the operation's input, with the change's origin named by the server. */
function post(app: Hono, ctx: AppContext, path: string, op: Operation<z.ZodType, unknown>, origin: Record<string, string>): void {
  app.post(path, (c) => answer(c, async () => invoke(op, ctx, { ...(await jsonObject(c)), ...origin } as never)));
}

export function correctRoutes(app: Hono, ctx: AppContext): void {
  const dashboard = { source: 'dashboard' };
  post(app, ctx, '/api/instincts/edit', edit, dashboard);
  post(app, ctx, '/api/instincts/alias', alias, dashboard);
  post(app, ctx, '/api/instincts/forget', forget, dashboard);
  post(app, ctx, '/api/instincts/promote', promote, dashboard);
  post(app, ctx, '/api/instincts/unpromote', unpromote, dashboard);
  // In the graph `source` names a fact's source entity: who changed it is `by`.
  post(app, ctx, '/api/facts/supersede', supersede, { by: 'dashboard' });
  post(app, ctx, '/api/facts/invalidate', invalidate, { by: 'dashboard' });
  post(app, ctx, '/api/memories/forget', deleteMemories, {});
  app.get('/api/projects/:project/facts', (c) =>
    answer(c, () => invoke(projectFacts, ctx, { project: c.req.param('project'), limit: limitParam(c, 'limit', 100, 1000) })),
  );
}

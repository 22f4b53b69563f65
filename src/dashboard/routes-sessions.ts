/** The dashboard's session routes: Chat (transcripts and the memory chat), Replay, Tools, and the Overview's signals and threads. */
import type { Hono } from 'hono';
import { signals, toolTimeline } from '../app/activity.js';
import { ask } from '../app/chat.js';
import { type AppContext, invoke } from '../app/operation.js';
import { sessionReplay, sessionThreads, sessionTranscript } from '../app/session-history.js';
import { answer, jsonObject, limitParam } from './respond.js';

export function sessionsRoutes(app: Hono, ctx: AppContext): void {
  app.get('/api/sessions/threads', (c) => answer(c, () => invoke(sessionThreads, ctx, { limit: limitParam(c, 'limit', 100, 1000) })));
  app.get('/api/sessions/signals', (c) =>
    answer(c, () => invoke(signals, ctx, { days: limitParam(c, 'days', 30, 366), to: c.req.query('to') || undefined })),
  );
  app.get('/api/sessions/:session/transcript', (c) => answer(c, () => invoke(sessionTranscript, ctx, { session: c.req.param('session') })));
  app.get('/api/sessions/:session/replay', (c) => answer(c, () => invoke(sessionReplay, ctx, { session: c.req.param('session') })));
  app.get('/api/tools/timeline', (c) =>
    answer(c, () => invoke(toolTimeline, ctx, { days: limitParam(c, 'days', 30, 366), to: c.req.query('to') || undefined })),
  );
  app.post('/api/chat', (c) => answer(c, async () => invoke(ask, ctx, (await jsonObject(c)) as never)));
}

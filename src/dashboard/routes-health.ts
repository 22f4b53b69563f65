/** The Memory, Security and Telemetry sections' routes: reads only, each one operation. */
import type { Hono } from 'hono';
import { memoryDiff, memoryHealth } from '../app/health.js';
import { invoke } from '../app/operation.js';
import type { AppContext } from '../app/operation.js';
import { hookTelemetry, securityReport } from '../app/telemetry.js';
import { answer } from './respond.js';

export function healthRoutes(app: Hono, ctx: AppContext): void {
  app.get('/api/memory/health', (c) => answer(c, () => invoke(memoryHealth, ctx, {})));
  // A missing start reads as empty, so the operation says what a date must look like; a missing end is now.
  app.get('/api/memory/diff', (c) =>
    answer(c, () => invoke(memoryDiff, ctx, { from: c.req.query('from') ?? '', to: c.req.query('to') || undefined })),
  );
  app.get('/api/telemetry', (c) => answer(c, () => invoke(hookTelemetry, ctx, {})));
  app.get('/api/security', (c) => answer(c, () => invoke(securityReport, ctx, {})));
}

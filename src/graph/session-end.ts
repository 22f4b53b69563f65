/**
 * What the session-end hook calls (phase 5): build the graph from the session,
 * then run the lifecycle GC if six hours have passed since the last one.
 */
import type { Store } from '../store/store.js';
import { type BuildOptions, type BuildReport, buildGraphFromSession } from './extract/build.js';
import { type GcReport, runLifecycle } from './maintenance.js';

interface SessionEndReport {
  build: BuildReport;
  gc?: GcReport;
}

export async function graphSessionEnd(store: Store, options: BuildOptions & { gc?: boolean }): Promise<SessionEndReport> {
  const build = await buildGraphFromSession(store, options);
  return options.gc === false ? { build } : { build, gc: runLifecycle(store) };
}

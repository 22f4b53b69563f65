/** import_patterns and import_claude_md: a pattern an import states, observed once and raised to its stated count. */
import type { Store } from '../store/store.js';
import { observe, raiseEvidence } from './instincts.js';
import type { IncomingInstinct } from './merge.js';

interface ImportOrigin {
  source: string;
  project: string;
  /** What the raise event says brought it, e.g. "import_patterns". */
  detail: string;
}

/**
 * Observes a validated imported pattern once, logged as imported (never local evidence),
 * then raises its evidence to the count the import states; never lowers.
 */
export function observeImported(store: Store, incoming: IncomingInstinct, origin: ImportOrigin): { pattern: string; created: boolean } {
  const source = incoming.source ?? origin.source;
  const project = incoming.project ?? origin.project;
  // An import describes a pattern it brings; it never rewrites how a held one is explained.
  const held = store.instincts.get(store.instincts.resolveAlias(incoming.key)) !== undefined;
  const outcome = observe(store, {
    pattern: incoming.key,
    category: incoming.category,
    source,
    project,
    explain: held ? undefined : incoming.explain,
    metadata: incoming.metadata,
    imported: true,
  });
  raiseEvidence(store, outcome.pattern, incoming.evidence, { source, project, detail: origin.detail });
  return { pattern: outcome.pattern, created: outcome.created };
}

/** import_patterns: bulk observe, raising a row's stated count but never lowering. */
import { errorMessage } from '../core/errors.js';
import type { Category } from '../core/domain.js';
import type { Store } from '../store/store.js';
import { MAX_EXPLAIN_LENGTH, observe, raiseEvidence } from './instincts.js';

interface PatternRow {
  pattern?: unknown;
  category?: unknown;
  source?: unknown;
  project?: unknown;
  metadata?: unknown;
  explain?: unknown;
  /** The count the row states: the pattern's evidence is raised to it (never lowered). */
  evidence?: unknown;
}

interface BulkResult {
  imported: number;
  updated: number;
  errors: number;
  reasons: string[];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export function importPatterns(store: Store, rows: readonly PatternRow[], defaults: { project: string; source: string }): BulkResult {
  const result: BulkResult = { imported: 0, updated: 0, errors: 0, reasons: [] };
  store.transaction(() => {
    rows.forEach((row, index) => {
      try {
        const pattern = str(row?.pattern)?.trim();
        if (!pattern) throw new Error('missing or empty "pattern"');
        const target = row.evidence === undefined ? 1 : Number(row.evidence);
        if (!Number.isInteger(target) || target < 1 || target > 1_000_000) throw new Error(`the count must be a positive whole number`);
        const metadata = row.metadata;
        if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))) {
          throw new Error('"metadata" must be an object');
        }
        const outcome = observe(store, {
          pattern,
          category: str(row.category) as Category | undefined,
          source: str(row.source) ?? defaults.source,
          project: str(row.project) ?? defaults.project,
          explain: str(row.explain)?.slice(0, MAX_EXPLAIN_LENGTH),
          metadata: metadata as Record<string, unknown> | undefined,
        });
        raiseEvidence(store, outcome.pattern, target, {
          source: str(row.source) ?? defaults.source,
          project: str(row.project) ?? defaults.project,
          detail: 'import_patterns',
        });
        if (outcome.created) result.imported++;
        else result.updated++;
      } catch (err) {
        result.errors++;
        result.reasons.push(`row ${index}: ${errorMessage(err)}`);
      }
    });
  });
  return result;
}

/** How a query ranks: the fused lists (hybrid), full-text alone (bm25), or vectors alone. */
import { UsageError } from '../core/errors.js';

export const SEARCH_MODES = ['hybrid', 'bm25', 'vector'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/** `value` as a search mode (hybrid when undefined); anything else is a usage error. */
export function searchMode(value: unknown): SearchMode {
  if (value === undefined) return 'hybrid';
  const mode = SEARCH_MODES.find((m) => m === value);
  if (mode === undefined) throw new UsageError(`--mode must be one of ${SEARCH_MODES.join(', ')}, got ${JSON.stringify(value)}.`);
  return mode;
}

/**
 * The MCP contract's record shape, at the MCP boundary only: there `confidence` is the integer
 * evidence count and `promoted` the level as a number. Everywhere else, `evidence` is the
 * count and `confidence` the 0.20-0.95 score.
 */
import type { Category, Level } from '../core/domain.js';
import type { InstinctStats } from '../learn/stats.js';
import type { InstinctView } from '../learn/records.js';

interface SeedRecord {
  pattern: string;
  category: Category;
  /** The evidence count. */
  confidence: number;
  promoted: number;
  level: Level;
  project: string;
  source: string;
  metadata: Record<string, unknown>;
  explain: string;
  first_seen: string;
  last_seen: string;
}

export function contractRecord(v: InstinctView): SeedRecord {
  return {
    pattern: v.pattern,
    category: v.category,
    confidence: v.evidence,
    promoted: v.level_rank,
    level: v.level,
    project: v.project,
    source: v.source,
    metadata: v.metadata,
    explain: v.explain,
    first_seen: v.first_seen,
    last_seen: v.last_seen,
  };
}

/** The MCP contract's stats(): evidence averages under its `confidence` names. */
export function contractStats(s: InstinctStats) {
  return {
    total: s.total,
    raw: s.raw,
    mature: s.mature,
    rules: s.rules,
    universal: s.universal,
    avg_confidence: s.avg_evidence,
    max_confidence: s.max_evidence,
    by_category: Object.fromEntries(Object.entries(s.by_category).map(([c, v]) => [c, { count: v.count, avg_confidence: v.avg_evidence }])),
  };
}

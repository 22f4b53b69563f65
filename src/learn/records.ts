/** The public shape of an instinct: seed 002's record plus seed 000's score face. */
import type { Category, Level } from '../core/domain.js';
import type { InstinctRow } from '../store/instincts.js';
import { parseJsonObject } from '../store/json.js';
import { effectiveConfidence } from './confidence.js';
import { LEVEL_BY_RANK, levelFor } from './levels.js';
import { isStaleConviction } from './promotion.js';

export interface InstinctRecord {
  pattern: string;
  category: Category;
  /** Seed 002: the integer evidence count. */
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

export interface InstinctView extends InstinctRecord {
  trigger: string;
  action: string;
  title: string;
  domain: string;
  /** Seed 000: the decayed confidence score as of now. */
  score: number;
  /** The level the evidence supports now (consolidate stores it). */
  current_level: Level;
  conviction: boolean;
  promoted_to: string | null;
  stale_conviction: boolean;
}

export function toRecord(row: InstinctRow): InstinctRecord {
  return {
    pattern: row.key,
    category: row.category,
    confidence: row.evidence,
    promoted: row.level,
    level: LEVEL_BY_RANK[row.level] ?? 'raw',
    project: row.project,
    source: row.source,
    metadata: parseJsonObject(row.metadata),
    explain: row.explain,
    first_seen: row.first_seen,
    last_seen: row.last_seen,
  };
}

export function scoreOf(row: InstinctRow, now: Date): number {
  return effectiveConfidence({ confidence: row.confidence, lastSeen: row.last_seen, foldedPeriods: row.folded_periods }, now);
}

export function toView(row: InstinctRow, now: Date, distinctProjects: number): InstinctView {
  const score = scoreOf(row, now);
  const conviction = row.promoted_at !== null;
  return {
    ...toRecord(row),
    trigger: row.trigger,
    action: row.action,
    title: row.title,
    domain: row.domain,
    score,
    current_level: levelFor({ evidence: row.evidence, lastSeen: row.last_seen, distinctProjects }, now),
    conviction,
    promoted_to: row.promoted_to,
    stale_conviction: isStaleConviction(conviction, score),
  };
}

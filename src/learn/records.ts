/** An instinct as the domain shows it: its evidence count and its confidence score as of now. */
import type { Category, Level } from '../core/domain.js';
import type { InstinctProvenance, InstinctRow } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import { parseJsonObject } from '../store/json.js';
import { effectiveConfidence } from './confidence.js';
import { LEVEL_BY_RANK, levelFor } from './levels.js';
import { isStaleConviction } from './promotion.js';

/** What a model reported with MCP's observe, as opposed to what learning saw in the sessions: said so wherever it is shown. */
export const AGENT_REPORT: Readonly<Record<string, unknown>> = { reported_by: 'agent' };
const AGENT_REPORT_JSON = JSON.stringify(AGENT_REPORT).slice(1, -1);

/** Whether metadata (an object, or JSON as the store writes it) marks an agent's report; a substring test on JSON, as hooks run it for every row they read. */
export const reportedByAgent = (metadata: Readonly<Record<string, unknown>> | string): boolean =>
  typeof metadata === 'string' ? metadata.includes(AGENT_REPORT_JSON) : metadata.reported_by === AGENT_REPORT.reported_by;

/** As many reports as learning needs sessions before an agent's report is given to agents unconfirmed. */
const REPORTS_TO_GIVE = 3;

/**
 * Whether an agent's report is held back from what the hooks inject: one report is the agent's
 * word alone, and could be anything (a planted instruction); the user confirming it, or its
 * coming back as often as learning needs, lets it through.
 */
export const heldBackReport = (
  row: Pick<InstinctRow, 'metadata' | 'evidence'>,
  provenance: Pick<InstinctProvenance, 'verdict'> | undefined,
): boolean => reportedByAgent(row.metadata) && provenance?.verdict !== 'strong' && row.evidence < REPORTS_TO_GIVE;

export interface InstinctView {
  pattern: string;
  category: Category;
  domain: string;
  trigger: string;
  action: string;
  title: string;
  explain: string;
  project: string;
  source: string;
  metadata: Record<string, unknown>;
  /** How many times the pattern was observed. */
  evidence: number;
  /** The 0.20-0.95 score as of now (decay applied). */
  confidence: number;
  /** The level consolidate stored (never goes down). */
  level: Level;
  /** 0 raw, 1 mature, 2 rule, 3 universal: the stored level as a number. */
  level_rank: number;
  /** The level the evidence supports now (consolidate stores it). */
  current_level: Level;
  first_seen: string;
  last_seen: string;
  /** Observed here, or created by an import (its evidence then counts only once observed here). */
  origin: 'observed' | 'imported';
  /** Occurrences observed here: what promotion counts. */
  local_evidence: number;
  conviction: boolean;
  promoted_to: string | null;
  stale_conviction: boolean;
  /** The user's latest feedback on it (null: none). */
  verdict: 'strong' | 'weak' | 'wrong' | null;
}

/** The confidence score of an instinct as of `now`: the stored score with the decay since it was last seen. */
export function currentConfidence(row: InstinctRow, now: Date): number {
  return effectiveConfidence({ confidence: row.confidence, lastSeen: row.last_seen, foldedPeriods: row.folded_periods }, now);
}

export function toView(row: InstinctRow, now: Date, distinctProjects: number, provenance: InstinctProvenance | undefined): InstinctView {
  const confidence = currentConfidence(row, now);
  const conviction = row.promoted_at !== null;
  return {
    pattern: row.key,
    category: row.category,
    domain: row.domain,
    trigger: row.trigger,
    action: row.action,
    title: row.title,
    explain: row.explain,
    project: row.project,
    source: row.source,
    metadata: parseJsonObject(row.metadata),
    evidence: row.evidence,
    confidence,
    level: LEVEL_BY_RANK[row.level] ?? 'raw',
    level_rank: row.level,
    current_level: levelFor({ evidence: row.evidence, lastSeen: row.last_seen, distinctProjects }, now),
    first_seen: row.first_seen,
    last_seen: row.last_seen,
    origin: provenance?.imported ? 'imported' : 'observed',
    local_evidence: provenance?.local_evidence ?? 0,
    conviction,
    promoted_to: row.promoted_to,
    stale_conviction: isStaleConviction(conviction, confidence, row.confidence),
    verdict: provenance?.verdict ?? null,
  };
}

/**
 * What sets an instinct apart from an ordinary one, in words: a conviction (possibly stale) and the
 * user's verdict. A list must say it, since a rule marked wrong is never given to an agent. Pure.
 */
export function statusOf(v: Pick<InstinctView, 'conviction' | 'stale_conviction' | 'verdict'>): string[] {
  const marks: string[] = [];
  if (v.conviction) marks.push(v.stale_conviction ? 'conviction (possibly stale)' : 'conviction');
  if (v.verdict === 'wrong') marks.push('marked wrong: not given to agents');
  else if (v.verdict) marks.push(`marked ${v.verdict}`);
  return marks;
}

/** Views of many rows at once (one query for their project counts, one for their provenance). */
/** Views of stored rows as of the store's clock, with their project counts and provenance read from the store. */
export function storeViews(store: Store, rows: readonly InstinctRow[]): InstinctView[] {
  const now = store.clock.now();
  const provenance = store.instincts.provenance(rows.map((r) => r.id));
  if (rows.length === 1) {
    const row = rows[0] as InstinctRow;
    return [toView(row, now, store.instincts.distinctProjects(row.id).length, provenance.get(row.id))];
  }
  return toViews(rows, now, store.instincts.distinctProjectCounts(), provenance);
}

function toViews(
  rows: readonly InstinctRow[],
  now: Date,
  projectCounts: ReadonlyMap<number, number>,
  provenance: ReadonlyMap<number, InstinctProvenance>,
): InstinctView[] {
  return rows.map((r) => toView(r, now, projectCounts.get(r.id) ?? 0, provenance.get(r.id)));
}

/**
 * Observer step 7: domain clustering and promotion opportunities, flagged in
 * identity.json. A cluster is a domain with at least 3 instincts at moderate confidence or
 * more; promotion candidates are instincts that meet the conviction criteria. Pure.
 */
import { round } from '../core/text.js';
import type { InstinctProvenance, InstinctRow } from '../store/instincts.js';
import { checkPromotion, promotionInput } from './promotion.js';
import { currentConfidence } from './records.js';

const CLUSTER_MIN_INSTINCTS = 3;
const CLUSTER_MIN_SCORE = 0.5;

export interface DomainCluster {
  domain: string;
  count: number;
  avg_confidence: number;
  patterns: string[];
}

export function domainClusters(rows: readonly InstinctRow[], now: Date): DomainCluster[] {
  const byDomain = new Map<string, { score: number; key: string }[]>();
  for (const row of rows) {
    const score = currentConfidence(row, now);
    if (score < CLUSTER_MIN_SCORE) continue;
    const list = byDomain.get(row.domain) ?? [];
    list.push({ score, key: row.key });
    byDomain.set(row.domain, list);
  }
  return [...byDomain.entries()]
    .filter(([, list]) => list.length >= CLUSTER_MIN_INSTINCTS)
    .map(([domain, list]) => ({
      domain,
      count: list.length,
      avg_confidence: round(list.reduce((s, x) => s + x.score, 0) / list.length, 3),
      patterns: list.sort((a, b) => b.score - a.score).map((x) => x.key),
    }))
    .sort((a, b) => b.count - a.count || a.domain.localeCompare(b.domain));
}

export function promotionCandidates(
  rows: readonly InstinctRow[],
  provenance: ReadonlyMap<number, InstinctProvenance>,
  now: Date,
): string[] {
  return rows
    .filter((row) => checkPromotion(promotionInput(row, currentConfidence(row, now), provenance.get(row.id), now), now).eligible)
    .map((row) => row.key);
}

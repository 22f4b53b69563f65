/**
 * The score modifiers, applied to a fused score for records that carry the field:
 *
 *   activationFactor = 1 / (1 + exp(-(activation + 2)))   ACT-R sigmoid: -2 -> 0.5, 0 -> 0.88
 *   recencyDecay     = exp(-days / 90)
 *   confidence       = the record's confidence score in [0, 1]
 */
import { DAY_MS } from '../core/clock.js';

export const RECENCY_DAYS = 90;
/** Score factor of a memory a later one restated: findable, but below its successor. */
export const SUPERSEDED_FACTOR = 0.5;
/**
 * Collections whose records age: the recency decay (days since valid_at) applies to
 * facts by default. Sessions and episodes are history a query asks for on purpose: decaying
 * them by default buried a year-old session under any newer record (`--recency` opts in).
 */
export const RECENCY_COLLECTIONS: readonly string[] = ['facts'];

export function activationFactor(activation: number): number {
  return 1 / (1 + Math.exp(-(activation + 2)));
}

/** exp(-days/90); a timestamp in the future counts as now. */
export function recencyDecay(days: number): number {
  return Math.exp(-Math.max(0, days) / RECENCY_DAYS);
}

export interface ModifierInput {
  confidence?: number | null;
  activation?: number | null;
  /** ISO timestamp; used only when recency is enabled for the record. */
  ts?: string | null;
  /** A later memory restated this one's value (search/supersede.ts). */
  superseded?: boolean;
}

export interface AppliedModifiers {
  confidence?: number;
  activation?: number;
  recency?: number;
  superseded?: number;
  /** Product of the factors above (1 when none apply). */
  factor: number;
}

/** The factors a record carries; recency only when the caller enables it for this record. */
export function modifiersFor(record: ModifierInput, now: Date, useRecency: boolean): AppliedModifiers {
  const applied: AppliedModifiers = { factor: 1 };
  if (record.confidence !== undefined && record.confidence !== null && Number.isFinite(record.confidence)) {
    applied.confidence = Math.min(1, Math.max(0, record.confidence));
    applied.factor *= applied.confidence;
  }
  if (record.activation !== undefined && record.activation !== null && Number.isFinite(record.activation)) {
    applied.activation = activationFactor(record.activation);
    applied.factor *= applied.activation;
  }
  if (useRecency && record.ts) {
    const t = Date.parse(record.ts);
    if (Number.isFinite(t)) {
      applied.recency = recencyDecay((now.getTime() - t) / DAY_MS);
      applied.factor *= applied.recency;
    }
  }
  if (record.superseded) {
    applied.superseded = SUPERSEDED_FACTOR;
    applied.factor *= SUPERSEDED_FACTOR;
  }
  return applied;
}

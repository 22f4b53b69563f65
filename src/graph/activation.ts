/**
 * ACT-R base-level activation (Anderson 1993). Pure.
 *
 *   base = ln( Σ t_i^-0.5 )      t_i = days since the i-th access, at least 1 (an access
 *                                today counts as one day, as in the design's worked example)
 *
 * Emotional weight (1.5 for corrections and failures) must make such memories last
 * longer. The design multiplies: base × 1.5. That helps only while base > 0: once a memory
 * weakens (base < 0), multiplying makes it more negative and it expires *sooner* than a
 * neutral one (a single access 40 days old: -1.84 neutral, -2.77 weighted, so it would be
 * expired). We therefore scale the magnitude in the memory's favour:
 *
 *   base >= 0:  base × w     (the design's boost for strong memories, unchanged)
 *   base <  0:  base / w     (decay is w times slower, so weak memories are protected)
 *
 * The result is continuous at 0, increasing in every access, and never below the neutral
 * activation for w >= 1. A single access then survives e^4 ≈ 55 days when neutral and
 * e^6 ≈ 403 days when weighted 1.5.
 */
import { DAY_MS } from '../core/clock.js';

const DECAY = 0.5;
export const EMOTIONAL_WEIGHT = 1.5;
export const NEUTRAL_WEIGHT = 1;
/** Below this activation a fact is expired by the lifecycle GC. */
export const EXPIRY_THRESHOLD = -2;

/** Days since an access, floored at 1 so a fresh access has weight 1 (and never infinity). */
export function accessAgeDays(accessedAt: Date | string, now: Date): number {
  const t = typeof accessedAt === 'string' ? Date.parse(accessedAt) : accessedAt.getTime();
  if (!Number.isFinite(t)) return Number.POSITIVE_INFINITY;
  return Math.max(1, (now.getTime() - t) / DAY_MS);
}

/** ln(Σ t_i^-d); -Infinity when there is no access at all. */
export function baseActivation(ageDays: readonly number[], decay = DECAY): number {
  let sum = 0;
  for (const t of ageDays) if (Number.isFinite(t) && t > 0) sum += t ** -decay;
  return sum > 0 ? Math.log(sum) : Number.NEGATIVE_INFINITY;
}

/** Applies the emotional weight in the memory's favour (see the module comment). */
export function weightActivation(base: number, weight: number): number {
  const w = Math.max(1, Number.isFinite(weight) ? weight : 1);
  if (!Number.isFinite(base)) return base;
  return base >= 0 ? base * w : base / w;
}

export function activation(accessTimes: readonly (Date | string)[], now: Date, weight = NEUTRAL_WEIGHT): number {
  return weightActivation(baseActivation(accessTimes.map((a) => accessAgeDays(a, now))), weight);
}

/** Sigmoid used in search scoring: -2 -> 0.5, 0 -> 0.88, 2 -> 0.98 (one definition, in search). */
export { activationFactor } from '../search/modifiers.js';

export const isExpired = (a: number): boolean => a < EXPIRY_THRESHOLD;

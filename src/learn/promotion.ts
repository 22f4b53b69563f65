/**
 * Conviction promotion: score >= 0.75, age >= 14 days, last seen within 7 days,
 * not already promoted. A promoted instinct below 0.40 is a possibly stale conviction.
 */
import { DAY_MS } from '../core/clock.js';

const PROMOTION_MIN_CONFIDENCE = 0.75;
const PROMOTION_MIN_AGE_DAYS = 14;
const PROMOTION_MAX_IDLE_DAYS = 7;
const STALE_CONVICTION_BELOW = 0.4;

interface PromotionInput {
  confidence: number;
  firstSeen: string;
  lastSeen: string;
  promoted: boolean;
}

interface PromotionCheck {
  eligible: boolean;
  reasons: string[];
  blockers: string[];
}

export function checkPromotion(input: PromotionInput, now: Date): PromotionCheck {
  const ageDays = (now.getTime() - Date.parse(input.firstSeen)) / DAY_MS;
  const idleDays = (now.getTime() - Date.parse(input.lastSeen)) / DAY_MS;
  const reasons: string[] = [];
  const blockers: string[] = [];
  const note = (ok: boolean, yes: string, no: string): void => {
    (ok ? reasons : blockers).push(ok ? yes : no);
  };
  note(
    input.confidence >= PROMOTION_MIN_CONFIDENCE,
    `confidence ${input.confidence.toFixed(2)} >= ${PROMOTION_MIN_CONFIDENCE}`,
    `confidence ${input.confidence.toFixed(2)} < ${PROMOTION_MIN_CONFIDENCE}`,
  );
  note(
    ageDays >= PROMOTION_MIN_AGE_DAYS,
    `${Math.floor(ageDays)} days old >= ${PROMOTION_MIN_AGE_DAYS}`,
    `only ${Math.floor(ageDays)} days old (needs ${PROMOTION_MIN_AGE_DAYS})`,
  );
  note(
    idleDays <= PROMOTION_MAX_IDLE_DAYS,
    `last seen ${Math.floor(Math.max(0, idleDays))} days ago (within ${PROMOTION_MAX_IDLE_DAYS})`,
    `last seen ${Math.floor(idleDays)} days ago (must be within ${PROMOTION_MAX_IDLE_DAYS})`,
  );
  note(!input.promoted, 'not yet promoted', 'already promoted');
  return { eligible: blockers.length === 0, reasons, blockers };
}

export function isStaleConviction(promoted: boolean, confidence: number): boolean {
  return promoted && confidence < STALE_CONVICTION_BELOW;
}

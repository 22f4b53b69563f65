/**
 * Conviction promotion: score >= 0.75, age >= 14 days, last seen within 7 days,
 * not already promoted; and observed here at least 3 times, the age counted from the first
 * of those, so what an import states (counts, scores, dates) never makes a conviction on
 * its own. A promoted instinct below 0.40 is a possibly stale conviction.
 */
import { DAY_MS } from '../core/clock.js';
import type { InstinctProvenance, InstinctRow } from '../store/instincts.js';
import { counted } from '../core/text.js';

const PROMOTION_MIN_CONFIDENCE = 0.75;
const PROMOTION_MIN_AGE_DAYS = 14;
const PROMOTION_MAX_IDLE_DAYS = 7;
const STALE_CONVICTION_BELOW = 0.4;
const PROMOTION_MIN_LOCAL_EVIDENCE = 3;

interface PromotionInput {
  confidence: number;
  /** When the instinct was first observed here (not what an import claims). */
  firstSeen: string;
  lastSeen: string;
  promoted: boolean;
  /** Occurrences observed here; imported counts are not among them. */
  localEvidence: number;
  /** When the user un-promoted it by hand (its latest conviction change), if they did: only they promote it again. */
  unpromotedAt?: string | null;
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
  note(
    input.localEvidence >= PROMOTION_MIN_LOCAL_EVIDENCE,
    `observed here ${input.localEvidence} times`,
    `observed here ${counted(input.localEvidence, 'time')} (needs ${PROMOTION_MIN_LOCAL_EVIDENCE}; imported evidence does not count)`,
  );
  note(!input.promoted, 'not yet promoted', 'already promoted');
  if (input.unpromotedAt)
    blockers.push(`un-promoted by hand on ${input.unpromotedAt.slice(0, 10)} (promote it by hand to make it a conviction again)`);
  return { eligible: blockers.length === 0, reasons, blockers };
}

/**
 * A conviction whose score has fallen below 0.40: decayed since it was last seen. One promoted
 * by hand at a low score has not fallen; the user vouched for it, and it is not called stale
 * until it decays.
 */
export function isStaleConviction(promoted: boolean, confidence: number, stored: number): boolean {
  return promoted && confidence < STALE_CONVICTION_BELOW && confidence < stored;
}

/** The promotion input of a stored instinct, given its current score and where its evidence came from. */
export function promotionInput(
  row: InstinctRow,
  confidence: number,
  provenance: InstinctProvenance | undefined,
  now: Date,
): PromotionInput {
  return {
    confidence,
    firstSeen: localSince(row.first_seen, provenance?.first_local ?? null, now),
    lastSeen: row.last_seen,
    promoted: row.promoted_at !== null,
    localEvidence: provenance?.local_evidence ?? 0,
    unpromotedAt: provenance?.unpromoted_at ?? null,
  };
}

/** The start of the age promotion counts: the later of the stored first sighting and the first one observed here. */
export function localSince(firstSeen: string, firstLocal: string | null, now: Date): string {
  if (firstLocal === null) return now.toISOString();
  return firstLocal > firstSeen ? firstLocal : firstSeen;
}

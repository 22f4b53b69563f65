/**
 * The confidence score (0.20–0.95): pure rules, no I/O.
 *
 * A stored score is the value at the moment it was last written. Decay is never written
 * silently; it is derived from last_seen, so reading twice never decays twice.
 * `foldedPeriods` counts the 7-day periods already folded into the stored value (by a
 * feedback, a contradiction or an explicit decay pass), so the design's formula
 * `max(0.20, c - 0.05 * floor((now - last_seen) / 7 days))` holds for the untouched record
 * and never double-counts a period after a write.
 */
import { DAY_MS } from '../core/clock.js';
import type { Feedback } from '../core/domain.js';
import { round } from '../core/text.js';

export const CONFIDENCE_FLOOR = 0.2;
export const CONFIDENCE_CEILING = 0.95;
const FEEDBACK_CEILING = 0.9;
const DECAY_PER_PERIOD = 0.05;
const DECAY_PERIOD_DAYS = 7;
const REINFORCE_STEP = 0.05;
const CONTRADICTION_PENALTY = 0.1;
export const CONTRADICTION_MIN_OBSERVATIONS = 3;
const WEAK_PENALTY = 0.15;
const STRONG_BONUS = 0.1;
/** An episode that recurs to the instinct threshold starts here. */
export const EPISODE_PROMOTION_CONFIDENCE = 0.5;

export interface ScoreState {
  confidence: number;
  lastSeen: string;
  foldedPeriods: number;
}

const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value));
const score = (value: number): number => round(clamp(value, CONFIDENCE_FLOOR, CONFIDENCE_CEILING), 3);

/** Starting score by evidence strength: 1 occurrence 0.30, 2 → 0.40, 3 or more → 0.50. */
export function initialConfidence(occurrences: number): number {
  const n = Math.max(1, Math.floor(occurrences));
  return round(Math.min(EPISODE_PROMOTION_CONFIDENCE, 0.2 + 0.1 * n), 3);
}

/** Whole 7-day periods elapsed since last_seen (0 for a future last_seen). */
export function decayPeriods(lastSeen: string, now: Date): number {
  const elapsed = now.getTime() - Date.parse(lastSeen);
  if (!(elapsed > 0)) return 0;
  return Math.floor(elapsed / (DECAY_PERIOD_DAYS * DAY_MS));
}

/** The score as of `now`, with every period not yet folded in. */
export function effectiveConfidence(state: ScoreState, now: Date): number {
  const pending = Math.max(0, decayPeriods(state.lastSeen, now) - state.foldedPeriods);
  if (state.confidence <= CONFIDENCE_FLOOR) return round(state.confidence, 3);
  return round(Math.max(CONFIDENCE_FLOOR, state.confidence - DECAY_PER_PERIOD * pending), 3);
}

/** Folds pending decay into the stored value: what a decay pass writes. */
export function foldDecay(state: ScoreState, now: Date): ScoreState {
  return {
    confidence: effectiveConfidence(state, now),
    lastSeen: state.lastSeen,
    foldedPeriods: Math.max(state.foldedPeriods, decayPeriods(state.lastSeen, now)),
  };
}

/** A new observation confirms the instinct: the score rises and last_seen resets. */
export function reinforce(state: ScoreState, now: Date, step = REINFORCE_STEP): ScoreState {
  return { confidence: score(effectiveConfidence(state, now) + step), lastSeen: now.toISOString(), foldedPeriods: 0 };
}

/** User feedback: wrong → 0.20, weak → −0.15, strong → +0.10 (feedback never lifts past 0.90). */
export function applyFeedback(state: ScoreState, feedback: Feedback, now: Date): ScoreState {
  const folded = foldDecay(state, now);
  const current = folded.confidence;
  let next: number;
  switch (feedback) {
    case 'wrong':
      next = CONFIDENCE_FLOOR;
      break;
    case 'weak':
      next = score(current - WEAK_PENALTY);
      break;
    case 'strong':
      next = Math.max(current, round(Math.min(FEEDBACK_CEILING, current + STRONG_BONUS), 3));
      break;
  }
  return { ...folded, confidence: next };
}

/** Three or more contradicting observations cost 0.10; fewer change nothing. */
export function applyContradiction(state: ScoreState, contradictions: number, now: Date): ScoreState {
  const folded = foldDecay(state, now);
  if (contradictions < CONTRADICTION_MIN_OBSERVATIONS) return folded;
  return { ...folded, confidence: score(folded.confidence - CONTRADICTION_PENALTY) };
}

/** Confidence bands, for display. */
export function confidenceBand(confidence: number): 'strong' | 'moderate' | 'tentative' | 'faded' {
  if (confidence >= 0.7) return 'strong';
  if (confidence >= 0.5) return 'moderate';
  if (confidence >= 0.3) return 'tentative';
  return 'faded';
}

/**
 * The evidence-count face of an instinct: raw < 5 <= mature < 10 <= rule,
 * universal = a rule observed in 2+ distinct projects. Patterns seen in the last 7 days
 * get +1 toward the mature threshold only.
 */
import { DAY_MS } from '../core/clock.js';
import type { Level } from '../core/domain.js';

const MATURE_THRESHOLD = 5;
const RULE_THRESHOLD = 10;
const UNIVERSAL_MIN_PROJECTS = 2;
const RECENCY_BONUS_DAYS = 7;

const LEVEL_RANK: Readonly<Record<Level, number>> = { raw: 0, mature: 1, rule: 2, universal: 3 };
export const LEVEL_BY_RANK: readonly Level[] = ['raw', 'mature', 'rule', 'universal'];

interface EvidenceState {
  evidence: number;
  lastSeen: string;
  distinctProjects: number;
}

export function seenRecently(lastSeen: string, now: Date): boolean {
  const elapsed = now.getTime() - Date.parse(lastSeen);
  return elapsed <= RECENCY_BONUS_DAYS * DAY_MS;
}

export function levelFor(state: EvidenceState, now: Date): Level {
  if (state.evidence >= RULE_THRESHOLD) {
    return state.distinctProjects >= UNIVERSAL_MIN_PROJECTS ? 'universal' : 'rule';
  }
  const bonus = seenRecently(state.lastSeen, now) ? 1 : 0;
  return state.evidence + bonus >= MATURE_THRESHOLD ? 'mature' : 'raw';
}

/** Levels only go up: consolidate never demotes what it promoted. */
export function promotedLevel(stored: number, state: EvidenceState, now: Date): number {
  return Math.max(stored, LEVEL_RANK[levelFor(state, now)]);
}

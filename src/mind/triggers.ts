/**
 * When reflection is due (seed 004): prediction deltas over a threshold, value conflicts,
 * goals completed or stale, and a periodic cycle. Pure: everything is read from the memory
 * log, so a reason counts once (until the next reflection) whichever process runs the loops.
 */
import type { Goal, Memory } from './schemas.js';

/** The situations of the memories the triggers read; the kernel writes all but the delta. */
export const MARK = {
  /** Kernel: a reflection finished (its description names the reasons it answered). */
  reflection: 'reflection',
  /** Self: how far an outcome was from its prediction; the weight is the delta (0-1). */
  delta: 'prediction delta',
  /** Kernel: the two best candidates were close and served different values. */
  conflict: 'value conflict',
  /** Kernel: a goal became done. */
  completed: 'goal completed',
  /** Kernel: a reflection could not finish (the model's answer was not usable, or the model failed). */
  reflectionFailed: 'reflection failed',
} as const;

export interface TriggerOptions {
  /** A recorded delta at least this large asks for reflection. */
  deltaThreshold: number;
  /** An open goal no memory mentioned for this many days is stale. */
  staleDays: number;
  /** Reflect at least once every this many action or explore cycles. */
  everyCycles: number;
}

export const DEFAULT_TRIGGERS: TriggerOptions = { deltaThreshold: 0.5, staleDays: 14, everyCycles: 5 };

export interface Reason {
  kind: 'prediction-delta' | 'value-conflict' | 'goal-completed' | 'goal-stale' | 'periodic' | 'requested';
  detail: string;
}

const DAY_MS = 86_400_000;
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
const at = (m: Memory): number => Date.parse(m.timestamp);

const isMark = (m: Memory, author: Memory['author'], situation: string): boolean => m.author === author && m.situation === situation;

/** When the latest reflection began, or -Infinity. */
export function lastReflection(memories: readonly Memory[]): number {
  let last = -Infinity;
  for (const m of memories) if (isMark(m, 'kernel', MARK.reflection)) last = Math.max(last, at(m));
  return last;
}

/** The newest time a memory names the goal (in its situation or description), or -Infinity. */
function lastMention(goal: Goal, memories: readonly Memory[]): number {
  const name = goal.name.toLowerCase();
  let last = -Infinity;
  for (const m of memories) if (`${m.situation}\n${m.description}`.toLowerCase().includes(name)) last = Math.max(last, at(m));
  return last;
}

function staleGoals(goals: readonly Goal[], memories: readonly Memory[], now: number, since: number, o: TriggerOptions): Reason[] {
  const first = memories.length ? Math.min(...memories.map(at)) : now;
  const window = o.staleDays * DAY_MS;
  return goals
    .filter((g) => g.status === 'todo' || g.status === 'working')
    .flatMap((g) => {
      // A goal is stale from staleDays after its last mention (or after the mind began).
      const staleFrom = Math.max(lastMention(g, memories), first) + window;
      return staleFrom <= now && staleFrom > since
        ? [{ kind: 'goal-stale' as const, detail: `"${g.name}" has not come up for ${o.staleDays} days` }]
        : [];
    });
}

const isCycleStart = (m: Memory): boolean => m.author === 'self' && /^(action|explore) prediction$/.test(m.situation);

/**
 * Situations of self memories the triggers read (a loop's prediction starts a cycle, a delta asks
 * for reflection), in any case: only the kernel records them, never a model's proposal.
 */
export const isTriggerMark = (situation: string): boolean =>
  new RegExp(`^(?:(?:action|explore|reflect) prediction|${MARK.delta})$`, 'i').test(situation);

/** Action and explore cycles begun since the latest reflection, counted in log order: a clock that stands still (a test, a frozen HOMUNCULUS_NOW) counts too. */
const cyclesAfterReflection = (memories: readonly Memory[]): number =>
  memories.slice(memories.findLastIndex((m) => isMark(m, 'kernel', MARK.reflection)) + 1).filter(isCycleStart).length;

/** How many action or explore cycles a failed reflection still waits for (in log order); 0 when the latest reflection did not fail. */
export function cyclesBeforeRetry(memories: readonly Memory[], cycles = DEFAULT_TRIGGERS.everyCycles): number {
  const last = memories.findLastIndex((m) => isMark(m, 'kernel', MARK.reflection) || isMark(m, 'kernel', MARK.reflectionFailed));
  if (last < 0 || memories[last]?.situation !== MARK.reflectionFailed) return 0;
  return Math.max(0, cycles - memories.slice(last + 1).filter(isCycleStart).length);
}

/**
 * Why reflection is due now, or nothing. `memories` is the whole log, kernel entries included.
 * After a reflection failed, its reasons wait `everyCycles` action or explore cycles: a model
 * that cannot answer the reflection's steps must not turn every cycle into a failed reflection.
 */
export function reflectionReasons(memories: readonly Memory[], goals: readonly Goal[], now: Date, o = DEFAULT_TRIGGERS): Reason[] {
  const since = lastReflection(memories);
  if (cyclesBeforeRetry(memories, o.everyCycles) > 0) return [];
  const recent = memories.filter((m) => at(m) > since);
  // A conflict a reflection already weighed (and left as it was) does not call for another.
  const weighed = new Set(memories.filter((m) => isMark(m, 'kernel', MARK.reflection)).flatMap((m) => m.description.split('\n')));
  const known = (detail: string): boolean => weighed.has(`- value-conflict: ${oneLine(detail)}`);
  const reasons: Reason[] = [];
  for (const m of recent) {
    if (isMark(m, 'self', MARK.delta) && m.weight >= o.deltaThreshold)
      reasons.push({ kind: 'prediction-delta', detail: `a prediction missed by ${m.weight}: ${m.description}` });
    if (isMark(m, 'kernel', MARK.conflict) && !known(m.description)) reasons.push({ kind: 'value-conflict', detail: m.description });
    if (isMark(m, 'kernel', MARK.completed)) reasons.push({ kind: 'goal-completed', detail: m.description });
  }
  reasons.push(...staleGoals(goals, memories, now.getTime(), since, o));
  const cycles = cyclesAfterReflection(memories);
  if (cycles >= o.everyCycles) reasons.push({ kind: 'periodic', detail: `${cycles} cycles since the last reflection` });
  return distinct(reasons);
}

/** Each reason once, on one line. */
function distinct(reasons: readonly Reason[]): Reason[] {
  const seen = new Set<string>();
  return reasons
    .map((r) => ({ kind: r.kind, detail: oneLine(r.detail) }))
    .filter((r) => !seen.has(`${r.kind}\n${r.detail}`) && Boolean(seen.add(`${r.kind}\n${r.detail}`)));
}

/** The reasons as the reflection's prompt reads them. */
export const reasonsText = (reasons: readonly Reason[]): string =>
  reasons.length ? reasons.map((r) => `- ${r.kind}: ${r.detail}`).join('\n') : '- requested';

/**
 * B = M × A × P (seed 004), pure. M: the alignment of a candidate with the active values and
 * open goals it serves (the mean of the strongest value weight and the strongest goal weight);
 * A: 1 when the skill it needs exists, else 0, and the candidate becomes "create the skill";
 * P: 1 for a direct prompt, halved (by default) for each step of indirection.
 */
import type { Goal, Value } from './schemas.js';

export interface Candidate {
  action: string;
  /** The skill the action runs. */
  skill: string;
  /** Names of the values and goals the model says it serves. */
  values: readonly string[];
  goals: readonly string[];
  /** 0 for a direct prompt (the user asked), n for a prompt n steps removed. */
  indirection: number;
}

export interface Scored {
  candidate: Candidate;
  m: number;
  a: 0 | 1;
  p: number;
  b: number;
  /** What the kernel does with it: run the skill, or create it first when it is missing. */
  next: { kind: 'run-skill'; skill: string } | { kind: 'create-skill'; skill: string };
}

export interface Mind {
  values: readonly Value[];
  goals: readonly Goal[];
  skills: readonly string[];
}

const strongest = (weights: number[]): number => (weights.length ? Math.max(...weights) : 0);

export function motivation(c: Candidate, mind: Mind): number {
  const v = strongest(mind.values.filter((x) => x.status === 'active' && c.values.includes(x.name)).map((x) => x.weight));
  const g = strongest(mind.goals.filter((x) => x.status !== 'done' && c.goals.includes(x.name)).map((x) => x.weight));
  return (v + g) / 2;
}

export const promptStrength = (indirection: number, decay = 0.5): number => (indirection <= 0 ? 1 : decay ** indirection);

export function score(c: Candidate, mind: Mind, decay = 0.5): Scored {
  const m = motivation(c, mind);
  const a = mind.skills.includes(c.skill) ? 1 : 0;
  const p = promptStrength(c.indirection, decay);
  return { candidate: c, m, a, p, b: m * a * p, next: { kind: a ? 'run-skill' : 'create-skill', skill: c.skill } };
}

/** Candidates best first; ties keep the model's order. */
export const rank = (cs: readonly Candidate[], mind: Mind, decay = 0.5): Scored[] =>
  cs.map((c) => score(c, mind, decay)).sort((x, y) => y.b - x.b);

/**
 * A value conflict: the two best candidates are within `margin` of each other and serve
 * different active values, so choosing one goes against a value the other serves. Pure.
 */
export function valueConflict(ranked: readonly Scored[], values: readonly Value[], margin = 0.05): string | undefined {
  const [first, second] = ranked;
  if (!first || !second || first.b <= 0 || second.b <= 0 || first.b - second.b > margin + 1e-9) return undefined;
  const served = (s: Scored) => values.filter((v) => v.status === 'active' && s.candidate.values.includes(v.name)).map((v) => v.name);
  const [a, b] = [served(first), served(second)];
  if (!a.length || !b.length || a.some((v) => b.includes(v))) return undefined;
  return `"${first.candidate.action}" (${a.join(', ')}) and "${second.candidate.action}" (${b.join(', ')}) scored within ${margin}`;
}

/**
 * The action loop (seed 004): MODEL → CANDIDATES → PREDICT → DECIDE → ACT → RECORD. The
 * kernel scores the model's candidates with B = M × A × P and records the scores; ACT runs
 * the chosen skill, or, when it does not exist (A = 0), the create-skill tool writes it and
 * accepts it only if it answers --help.
 */
import { z } from 'zod';
import { sandboxProblem } from '../agent/sandbox.js';
import type { Clock } from '../core/clock.js';
import { truncate } from '../core/text.js';
import { type Candidate, rank, type Scored, valueConflict } from './bmap.js';
import { readGoals, readValues } from './files.js';
import type { InstancePaths } from './instance.js';
import { type Ask, asText, type Cycle, fail, jsonIn, type LoopReport, type Recaller, recallInto, startCycle } from './loops.js';
import { issueText } from './schemas.js';
import { acceptSkill, listSkills, runSkill, type SkillOptions } from './skills.js';
import { MARK } from './triggers.js';

const candidateSchema = z.object({
  action: z.string().min(1),
  // A skill name is a folder under skills/: nothing else (no path, no `..`) is one.
  skill: z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, 'must be a lower-case skill name'),
  values: z.array(z.string()).default([]),
  goals: z.array(z.string()).default([]),
  indirection: z.number().int().min(0).default(0),
});
// Each entry is checked on its own (validCandidates): one bad entry does not cost the others.
const candidatesSchema = z.object({ candidates: z.array(z.unknown()).min(1) });

/** The valid candidates, and each refused entry with why ("entry 1, skill: must be ..."). */
export function validCandidates(entries: readonly unknown[]): { valid: Candidate[]; refused: string[] } {
  const valid: Candidate[] = [];
  const refused: string[] = [];
  entries.forEach((entry, i) => {
    const parsed = candidateSchema.safeParse(entry);
    if (parsed.success) return void valid.push(parsed.data);
    const { where, message } = issueText(parsed.error);
    refused.push(`entry ${i + 1}${where === 'the document' ? '' : `, ${where}`}: ${message}`);
  });
  return { valid, refused };
}
const skillFilesSchema = z.object({ files: z.record(z.string(), z.string()) });

/** ACT: runs the skill, or creates it first; what happened, in words, for RECORD, and whether the skill ran. */
async function act(cycle: Cycle, chosen: Scored, options: SkillOptions): Promise<{ text: string; ran: boolean }> {
  const { skills } = cycle.paths;
  const { skill } = chosen.next;
  if (chosen.next.kind === 'create-skill') {
    const files = jsonIn(await cycle.step('create-skill'), skillFilesSchema);
    if (typeof files === 'string')
      return { text: `the skill ${skill} does not exist and the model wrote no files for it (${files})`, ran: false };
    const written = cycle.mind.createSkill(skill, files.files);
    if (!written.done) return { text: written.refused, ran: false };
    const refused = await acceptSkill(skills, skill, options);
    if (refused) cycle.mind.kernelNote(refused);
    // Said so that a chat turn without a reply still tells the person what became of their line.
    const created = `created the skill ${skill}; it did not run this turn, and the next one can choose it`;
    return { text: refused ?? created, ran: false };
  }
  const run = await runSkill(skills, skill, [], await cycle.step('act'), options);
  if (!run.sandboxed) cycle.mind.kernelNote(`ran the skill ${skill} outside the sandbox (${sandboxProblem() ?? 'asked to'})`);
  return run.ok ? { text: run.stdout.trim(), ran: true } : { text: `the skill ${skill} failed: ${run.stderr.trim()}`, ran: false };
}

export interface ActionOptions extends SkillOptions {
  recaller?: Recaller;
}

/**
 * The choice and its score, saying so when the model's DECIDE step passed over the best score
 * (its judgment within the kernel's structure) and when a missing skill is created first (A = 0).
 */
export function choiceLine(chosen: Scored, best: Scored, decided?: string): string {
  const { m, a, p, b } = chosen;
  const line = `chose "${chosen.candidate.action}": B = ${b.toFixed(3)} (M ${m.toFixed(2)} × A ${a} × P ${p.toFixed(2)})`;
  const over =
    decided !== undefined
      ? `; the best score, as the model's DECIDE answer ("${truncate(decided, 80)}") named no candidate`
      : chosen !== best && best.b > b
        ? `; the model's pick over "${best.candidate.action}" (B = ${best.b.toFixed(3)})`
        : '';
  const create = a === 0 ? `; its skill ${chosen.next.skill} does not exist yet, so it is written first` : '';
  return `${line}${over}${create}`;
}

export async function runAction(
  paths: InstancePaths,
  clock: Clock,
  ask: Ask,
  situation: string,
  options: ActionOptions,
): Promise<LoopReport> {
  const cycle = startCycle('action', paths, clock, ask);
  const { recaller, ...skillOptions } = options;
  await recallInto(cycle, recaller, situation);
  const skills = listSkills(paths.skills);
  Object.assign(cycle.vars, { situation, skills: skills.join(', ') || 'none' });
  await cycle.step('model');
  const proposed = jsonIn(await cycle.step('candidates'), candidatesSchema);
  if (typeof proposed === 'string') return fail(cycle, `the CANDIDATES answer was not valid (${proposed}); nothing was done`);
  const { valid, refused } = validCandidates(proposed.candidates);
  if (!valid.length) return fail(cycle, `the CANDIDATES answer had no valid candidate (${refused.join('; ')}); nothing was done`);
  if (refused.length) {
    cycle.report.refusedCandidates = refused;
    cycle.mind.kernelNote(`Refused ${refused.length} of the candidates, the others were kept: ${refused.join('; ')}.`);
  }
  const mind = { values: readValues(paths.data), goals: readGoals(paths.data, cycle.year), skills };
  const scored = rank(valid, mind);
  const conflict = valueConflict(scored, mind.values);
  if (conflict) cycle.mind.kernelNote(conflict, MARK.conflict);
  cycle.vars.scored = asText(scored.map(({ candidate, m, a, p, b, next }) => ({ action: candidate.action, m, a, p, b, next })));
  await cycle.step('predict');
  const choice = (await cycle.step('decide')).trim();
  // The model decides among the candidates only; anything else falls back to the best score.
  const picked = scored.find((s) => s.candidate.action === choice);
  const chosen = picked ?? (scored[0] as Scored);
  cycle.report.choice = choiceLine(chosen, scored[0] as Scored, picked ? undefined : choice);
  cycle.mind.kernelNote(cycle.report.choice);
  Object.assign(cycle.vars, { action: chosen.candidate.action, skill: chosen.next.skill });
  const done = await act(cycle, chosen, skillOptions);
  cycle.vars.outcome = done.text;
  Object.assign(cycle.report, { outcome: done.text, skillRan: done.ran });
  return cycle.propose(await cycle.step('record'));
}

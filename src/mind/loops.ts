/**
 * The explore and reflect loops (seed 004), one cycle each: every step renders its prompt
 * files, asks the model, and hands the answer to the next step. The PREDICT answer is recorded
 * before anything changes, so a later reflection can measure the delta. The last step answers
 * with a JSON proposal that the kernel applies through the loop's capability: whatever the
 * model proposes, only the loop's cells of the permission table are written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { HomunculusError } from '../core/errors.js';
import { truncate } from '../core/text.js';
import { readGoals, readSoul, readValues } from './files.js';
import type { InstancePaths } from './instance.js';
import { capability, type MindWrites, type WriteResult } from './kernel.js';
import type { Loop } from './permissions.js';
import { goalSchema, issueText, type Memory, memorySchema, valueSchema } from './schemas.js';
import { MARK, type Reason, reasonsText } from './triggers.js';

/** The steps of each loop, in order; each has prompts/<loop>-<step>/system.md and prompt.md. */
export const LOOP_STEPS: Readonly<Record<Loop, readonly string[]>> = {
  action: ['model', 'candidates', 'predict', 'decide', 'act', 'record'],
  explore: ['explore', 'predict', 'record'],
  reflect: ['review', 'ask', 'predict', 'evolve'],
};

/** The steps with a prompt of their own: each loop's steps, and the action loop's create-skill tool. */
export const PROMPTED_STEPS: Readonly<Record<Loop, readonly string[]>> = {
  ...LOOP_STEPS,
  action: [...LOOP_STEPS.action, 'create-skill'],
};

/** The model, as the loops see it: a system prompt and a prompt in, text out. */
export type Ask = (system: string, prompt: string) => Promise<string>;

/** What a loop's last step may propose; the kernel decides what of it happens. */
// An item's extra keys are dropped, not fatal: one stray field must not void a whole reflection.
export const proposalSchema = z
  .object({
    soul: z.string().optional(),
    values: z.array(z.object(valueSchema.shape)).optional(),
    goals: z.array(z.object(goalSchema.shape)).optional(),
    memories: z.array(z.object(memorySchema.shape).omit({ timestamp: true })).optional(),
    /** How far the outcome was from the prediction, 0 (as predicted) to 1 (the opposite). */
    delta: z.number().min(0).max(1).optional(),
  })
  .strict();

export interface LoopReport {
  loop: Loop;
  steps: { step: string; answer: string }[];
  /** What ACT produced (the action loop only): the skill's output (the chat skill's reply), or what went wrong. */
  outcome?: string;
  /** The chosen skill ran and succeeded: `outcome` is its output. */
  skillRan?: boolean;
  /** The kernel's record of the action chosen and its B = M × A × P (the action loop only). */
  choice?: string;
  /** Why the cycle could not finish: the model's answer was not usable (nothing it proposed was applied). */
  failure?: string;
  /** The action loop's candidates the kernel refused, each with why (the others were kept). */
  refusedCandidates?: string[];
  /** Each proposed write and what the kernel did with it. */
  writes: { what: string; result: WriteResult }[];
}

function promptFile(paths: InstancePaths, step: string, file: string): string {
  const path = join(paths.prompts, step, file);
  if (!existsSync(path))
    throw new HomunculusError('not_found', `The prompt file ${path} is missing.`, { hint: 'run homunculus mind init to restore it' });
  return readFileSync(path, 'utf8');
}

/** A situation the kernel puts in words (prompts/situations/<name>.md): idle, or a chat message. */
export function situation(paths: InstancePaths, name: 'idle' | 'chat', vars: Readonly<Record<string, string>> = {}): string {
  return render(promptFile(paths, 'situations', `${name}.md`), vars, `prompts/situations/${name}.md`).trim();
}

/** Replaces {{name}}; a placeholder with no value is a broken prompt file, named with the fix. */
export function render(template: string, vars: Readonly<Record<string, string>>, file: string): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
    const value = vars[name];
    if (value === undefined)
      throw new HomunculusError('prompt', `${file} uses {{${name}}}, which this step does not provide.`, {
        hint: `use only ${Object.keys(vars).join(', ')}`,
      });
    return value;
  });
}

/**
 * The JSON object in a model's answer (models often wrap it in prose or a code fence),
 * validated: the data, or why it is not valid.
 */
export function jsonIn<T>(answer: string, schema: z.ZodType<T>): T | string {
  let raw: unknown;
  try {
    raw = JSON.parse(answer.slice(answer.indexOf('{'), answer.lastIndexOf('}') + 1));
  } catch {
    return 'no JSON object in the answer';
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const { where, message } = issueText(parsed.error);
  return `${where}: ${message}`;
}

function apply(mind: MindWrites, proposal: z.infer<typeof proposalSchema>, year: number): LoopReport['writes'] {
  const writes: LoopReport['writes'] = [];
  if (proposal.soul !== undefined) writes.push({ what: 'soul.md', result: mind.writeSoul(proposal.soul) });
  if (proposal.values) writes.push({ what: 'values.json', result: mind.writeValues(proposal.values) });
  for (const goal of proposal.goals ?? []) writes.push({ what: `goal ${goal.name}`, result: mind.setGoal(year, goal) });
  for (const memory of proposal.memories ?? []) writes.push({ what: 'memory', result: mind.remember(memory) });
  return writes;
}

/** The mind's own measure of its prediction, kept where reflection (and its trigger) reads it. */
function recordDelta(cycle: Cycle, delta: number): LoopReport['writes'][number] {
  const description = `predicted: ${truncate(cycle.vars.predict ?? '', 300)} | happened: ${truncate(cycle.vars.outcome ?? cycle.vars.record ?? '', 300)}`;
  return { what: 'prediction delta', result: cycle.mind.keep({ author: 'self', weight: delta, situation: MARK.delta, description }) };
}

export const asText = (x: unknown): string => JSON.stringify(x, null, 2);

/** One cycle of a loop in progress: its capability, the prompt variables so far, its report. */
export interface Cycle {
  readonly mind: MindWrites;
  readonly paths: InstancePaths;
  readonly year: number;
  readonly vars: Record<string, string>;
  readonly report: LoopReport;
  /** Asks the model the step's prompt; the answer becomes the variable named after the step. */
  step(step: string): Promise<string>;
  /** Applies the proposal in `answer` through the capability, or refuses it whole when it is none. */
  propose(answer: string): LoopReport;
}

/** The kernel's record of a cycle that failed; a failed reflection is marked, so the triggers wait before trying again (triggers.ts). */
export function noteFailure(mind: MindWrites, description: string): void {
  mind.kernelNote(description, mind.loop === 'reflect' ? MARK.reflectionFailed : undefined);
}

/** Ends a cycle as failed: the model's answer was not usable. The kernel keeps the reason. */
export function fail(cycle: Cycle, reason: string): LoopReport {
  cycle.report.failure = reason;
  noteFailure(cycle.mind, `${reason[0]?.toUpperCase()}${reason.slice(1)}.`);
  return cycle.report;
}

/** What the action loop has in hand at each step, beyond who the mind is (ACT and CREATE-SKILL are alternatives: RECORD sees neither's answer). */
const ACTION_VARS: Readonly<Record<string, readonly string[]>> = (() => {
  const model = ['situation', 'skills'];
  const candidates = [...model, 'model'];
  const predict = [...candidates, 'candidates', 'scored'];
  const decide = [...predict, 'predict'];
  const act = [...decide, 'decide', 'action', 'skill'];
  return { model, candidates, predict, decide, act, 'create-skill': act, record: [...act, 'outcome'] };
})();

/** The variables a step's prompts may use: who the mind is, its memories, and what the loop has by then. */
export function stepVars(loop: Loop, step: string): string[] {
  const mind = ['soul', 'values', 'goals', 'memories'];
  if (loop === 'action') return [...mind, ...(ACTION_VARS[step] ?? [])];
  const steps = LOOP_STEPS[loop];
  return [...mind, ...(loop === 'reflect' ? ['reasons'] : []), ...steps.slice(0, Math.max(0, steps.indexOf(step)))];
}

/**
 * Every prompt file a loop may render, present and using only the variables its step has:
 * checked before the cycle writes anything, so an edited prompt with a typo stops nothing half way.
 */
export function checkPrompts(paths: InstancePaths, loop: Loop): void {
  for (const step of PROMPTED_STEPS[loop]) {
    const known = stepVars(loop, step);
    for (const file of ['system.md', 'prompt.md']) {
      const unknown = [...promptFile(paths, `${loop}-${step}`, file).matchAll(/\{\{(\w+)\}\}/g)].find(
        (m) => !known.includes(m[1] as string),
      );
      if (unknown)
        throw new HomunculusError(
          'prompt',
          `prompts/${loop}-${step}/${file} uses ${unknown[0]}, which the ${loop} loop does not have at that step.`,
          {
            hint: `use only ${known.map((k) => `{{${k}}}`).join(', ')}, or restore the file: delete it and run homunculus mind init`,
          },
        );
    }
  }
}

export function startCycle(loop: Loop, paths: InstancePaths, clock: Clock, ask: Ask): Cycle {
  checkPrompts(paths, loop);
  const year = clock.now().getUTCFullYear();
  const mind = capability(loop, paths, clock);
  const vars: Record<string, string> = {
    soul: readSoul(paths.data),
    values: asText(readValues(paths.data)),
    goals: asText(readGoals(paths.data, year)),
    memories: asText(mind.memories().slice(-20)),
  };
  const report: LoopReport = { loop, steps: [], writes: [] };
  const cycle: Cycle = {
    mind,
    paths,
    year,
    vars,
    report,
    async step(step) {
      const dir = `${loop}-${step}`;
      const prompt = render(promptFile(paths, dir, 'prompt.md'), vars, `prompts/${dir}/prompt.md`);
      const answer = await ask(promptFile(paths, dir, 'system.md'), prompt);
      report.steps.push({ step, answer });
      vars[step] = answer;
      if (step === 'predict') mind.keep({ author: 'self', weight: 0.5, situation: `${loop} prediction`, description: answer });
      return answer;
    },
    propose(answer) {
      const proposal = jsonIn(answer, proposalSchema);
      if (typeof proposal !== 'string') {
        report.writes.push(...apply(mind, proposal, year));
        if (proposal.delta !== undefined) report.writes.push(recordDelta(cycle, proposal.delta));
      } else fail(cycle, `the ${loop} loop's last answer was not a valid proposal (${proposal}); nothing was changed`);
      return report;
    },
  };
  return cycle;
}

/** Picks the memories a cycle is shown (recall.ts: recent plus related); absent: the 20 most recent. */
export type Recaller = (visible: Memory[], query: string) => Promise<Memory[]>;

/** Replaces the cycle's {{memories}} with what the recaller picks for `query`. */
export async function recallInto(cycle: Cycle, recaller: Recaller | undefined, query: string): Promise<void> {
  if (recaller) cycle.vars.memories = asText(await recaller(cycle.mind.memories(), query));
}

/**
 * One cycle of explore or reflect: every step in order, then the last answer's proposal. A
 * reflection records why it runs (its `reasons`, triggers.ts), which also marks the reasons
 * as answered.
 */
export async function runLoop(
  loop: Exclude<Loop, 'action'>,
  paths: InstancePaths,
  clock: Clock,
  ask: Ask,
  options: { recaller?: Recaller; reasons?: readonly Reason[] } = {},
): Promise<LoopReport> {
  const cycle = startCycle(loop, paths, clock, ask);
  const { recaller } = options;
  if (loop === 'reflect') cycle.vars.reasons = reasonsText(options.reasons ?? []);
  // Exploring starts from the goals; reflecting, from who the mind is.
  await recallInto(cycle, recaller, loop === 'explore' ? (cycle.vars.goals as string) : (cycle.vars.soul as string));
  let answer = '';
  for (const step of LOOP_STEPS[loop]) answer = await cycle.step(step);
  const report = cycle.propose(answer);
  // Only a reflection that finished answers its reasons; a failed one leaves them due.
  if (loop === 'reflect' && !report.failure) cycle.mind.kernelNote(`reflected on:\n${cycle.vars.reasons}`, MARK.reflection);
  return report;
}

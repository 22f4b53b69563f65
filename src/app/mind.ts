/**
 * The mind's operations (seed 004): `mind init` and `mind about` (the loops are in
 * mind-loops.ts). They need no store: the instance is files under the home's mind/ folder.
 */
import type { LanguageModel } from 'ai';
import { z } from 'zod';
import { parseInstant, systemClock } from '../core/clock.js';
import { existsSync } from 'node:fs';
import { readGoals, readMemories, readSoul, readValues, valuesPath } from '../mind/files.js';
import { commitData, initInstance, type InitReport, instanceRoot, requireInstance } from '../mind/instance.js';
import { listSkills } from '../mind/skills.js';
import { AUTHORS, type Author, type Goal, type Memory, type Value } from '../mind/schemas.js';
import { cyclesBeforeRetry, type Reason, reflectionReasons } from '../mind/triggers.js';
import { defineOperation } from './operation.js';
import { wholeNumber } from './schemas.js';

export interface MindContext {
  /** The Homunculus home; the instance is its mind/ folder. */
  home: string;
  env: NodeJS.ProcessEnv;
  /** The model the loops ask (tests: the AI SDK's mock model); default: agent.local in config.json. */
  model?: LanguageModel;
  /** Told of slow work before it starts (the first indexing of a long memory log). */
  note?: (text: string) => void;
  /** Aborted to stop waiting for the model (Ctrl-C in a chat): the cycle ends as cancelled. */
  cancel?: AbortSignal;
}

export const year = (ctx: MindContext): number => systemClock(ctx.env).now().getUTCFullYear();

export const mindInit = defineOperation({
  name: 'mind.init',
  summary: 'Scaffold a mind instance: data/ under git with a first commit, the chat skill, the prompts of every step',
  input: z.object({}).strict(),
  run: (ctx: MindContext): InitReport => initInstance(instanceRoot(ctx.home), year(ctx)),
});

export interface MindAbout {
  root: string;
  soul: string;
  values: Value[];
  /** data/values.json is not there: the mind acts on no values until `mind init` puts the template back. */
  valuesMissing: boolean;
  goals: Goal[];
  skills: string[];
  memoryCounts: Record<Author, number>;
  /** Why a reflection is due now (triggers.ts); empty when none is. */
  reflectionDue: Reason[];
  /** After a failed reflection: how many action or explore cycles before it is tried again (0: not waiting). */
  reflectionWaits: number;
  /** The kernel's record of the latest action chosen, with its B = M × A × P. */
  lastChoice?: string;
  /** Only with --memories, --author or --date: the matching memories, newest last. */
  memories?: Memory[];
}

const dateText = z
  .string()
  .refine((d) => /^\d{4}-\d{2}-\d{2}$/.test(d) && parseInstant(d) !== undefined, { error: 'must be a date YYYY-MM-DD, e.g. 2026-02-14' });

export const mindAbout = defineOperation({
  name: 'mind.about',
  summary: "Show the mind's soul, values, goals, skills and memory counts; with --memories, its recent memories",
  input: z
    .object({
      memories: z.boolean().default(false),
      author: z.enum(AUTHORS, { error: `must be one of ${AUTHORS.join(', ')}` }).optional(),
      date: dateText.optional(),
      /** How many memories at most (default 20); giving it shows memories. */
      limit: wholeNumber(1, 10_000).optional(),
    })
    .strict(),
  run(ctx: MindContext, input): MindAbout {
    const paths = requireInstance(instanceRoot(ctx.home));
    const goals = readGoals(paths.data, year(ctx));
    const all = readMemories(paths.data, input.date);
    const everything = input.date === undefined ? all : readMemories(paths.data);
    const lastChoice = everything.findLast((m) => m.author === 'kernel' && m.description.startsWith('chose "'));
    const memoryCounts = Object.fromEntries(AUTHORS.map((a) => [a, all.filter((m) => m.author === a).length])) as Record<Author, number>;
    const show = input.memories || input.author !== undefined || input.date !== undefined || input.limit !== undefined;
    const matching = all.filter((m) => input.author === undefined || m.author === input.author).slice(-(input.limit ?? 20));
    return {
      root: paths.root,
      soul: readSoul(paths.data),
      values: readValues(paths.data),
      valuesMissing: !existsSync(valuesPath(paths.data)),
      goals,
      skills: listSkills(paths.skills),
      memoryCounts,
      reflectionDue: reflectionReasons(everything, goals, systemClock(ctx.env).now()),
      reflectionWaits: cyclesBeforeRetry(everything),
      ...(lastChoice ? { lastChoice: lastChoice.description } : {}),
      ...(show ? { memories: matching } : {}),
    };
  },
});

export const mindCommit = defineOperation({
  name: 'mind.commit',
  summary: "Commit the mind's data/ to its git repository (a point to roll back to, and the audit trail)",
  input: z.object({ message: z.string().trim().min(1, { error: 'must not be empty' }).max(500).optional() }).strict(),
  /** `commit`: the new commit's id, or null when data/ is as last committed. */
  run(ctx: MindContext, input): { commit: string | null } {
    const paths = requireInstance(instanceRoot(ctx.home));
    const commit = commitData(paths.data, input.message ?? `mind at ${systemClock(ctx.env).now().toISOString()}`);
    return { commit: commit ?? null };
  },
});

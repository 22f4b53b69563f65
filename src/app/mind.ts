/** The mind's operations (seed 004): `mind init` and `mind about`. They run before any store exists. */
import { generateText } from 'ai';
import { z } from 'zod';
import { loadAgentConfig } from '../agent/config.js';
import { createAgentModel, modelFailure } from '../agent/providers.js';
import { loadConfig } from '../core/config.js';
import { createProvider, embeddingConfig } from '../embed/config.js';
import { runtimeDir } from '../embed/runtime.js';
import { homePaths } from '../core/paths.js';
import { parseInstant, systemClock } from '../core/clock.js';
import { readGoals, readMemories, readSoul, readValues } from '../mind/files.js';
import { runAction } from '../mind/action.js';
import { type LoopReport, type Recaller, runLoop } from '../mind/loops.js';
import { DEFAULT_RECALL, recall } from '../mind/recall.js';
import { initInstance, type InitReport, instanceRoot, requireInstance } from '../mind/instance.js';
import { listSkills } from '../mind/skills.js';
import type { Loop } from '../mind/permissions.js';
import { AUTHORS, type Author, type Goal, type Memory, type Value } from '../mind/schemas.js';
import { defineOperation } from './operation.js';

export interface MindContext {
  /** The Homunculus home; the instance is its mind/ folder. */
  home: string;
  env: NodeJS.ProcessEnv;
}

const year = (ctx: MindContext): number => systemClock(ctx.env).now().getUTCFullYear();

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
  goals: Goal[];
  skills: string[];
  memoryCounts: Record<Author, number>;
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
      limit: z.number().int().min(1).max(10_000).default(20),
    })
    .strict(),
  run(ctx: MindContext, input): MindAbout {
    const paths = requireInstance(instanceRoot(ctx.home));
    const all = readMemories(paths.data, input.date);
    const memoryCounts = Object.fromEntries(AUTHORS.map((a) => [a, all.filter((m) => m.author === a).length])) as Record<Author, number>;
    const show = input.memories || input.author !== undefined || input.date !== undefined;
    const matching = all.filter((m) => input.author === undefined || m.author === input.author).slice(-input.limit);
    return {
      root: paths.root,
      soul: readSoul(paths.data),
      values: readValues(paths.data),
      goals: readGoals(paths.data, year(ctx)),
      skills: listSkills(paths.skills),
      memoryCounts,
      ...(show ? { memories: matching } : {}),
    };
  },
});

/** The model of `agent.local` in config.json, as the loops' `ask`. */
function localAsk(ctx: MindContext) {
  const agent = createAgentModel(loadAgentConfig(loadConfig(homePaths(ctx.home).config)).local, ctx.env);
  return async (system: string, prompt: string): Promise<string> => {
    try {
      return (await generateText({ model: agent.model, system, prompt, maxOutputTokens: agent.maxOutputTokens })).text;
    } catch (err) {
      throw modelFailure(err, agent);
    }
  };
}

/** The action loop's situation when nothing prompted it. */
const IDLE = 'Nothing happened: pursue your goals.';

export const mindTrigger = defineOperation({
  name: 'mind.trigger',
  summary: 'Run one cycle of a loop (action, explore or reflect) on the local model (agent.local)',
  input: z
    .object({
      loop: z.enum(['action', 'explore', 'reflect'], { error: 'must be action, explore or reflect' }),
      /** What the action loop responds to; without one it pursues its goals. */
      situation: z.string().min(1).max(10_000).default(IDLE),
    })
    .strict(),
  async run(ctx: MindContext, input): Promise<LoopReport> {
    const paths = requireInstance(instanceRoot(ctx.home));
    const clock = systemClock(ctx.env);
    const config = loadConfig(homePaths(ctx.home).config);
    const encoder = await createProvider(embeddingConfig(config, ctx.env), { env: ctx.env, runtimeDir: runtimeDir(ctx.home, ctx.env) });
    const recaller: Recaller = (visible, query) => recall(visible, query, encoder, { ...DEFAULT_RECALL, now: clock.now() });
    try {
      return input.loop === 'action'
        ? await runAction(paths, clock, localAsk(ctx), input.situation, { home: ctx.home, recaller })
        : await runLoop(input.loop, paths, clock, localAsk(ctx), recaller);
    } finally {
      await encoder?.close?.();
    }
  },
});

/** Which loop cycle `n` (from 0) of `mind run` runs: action and explore alternate; every `reflectEvery`-th cycle reflects. */
export const loopOfCycle = (n: number, reflectEvery: number): Loop =>
  (n + 1) % reflectEvery === 0 ? 'reflect' : n % 2 === 0 ? 'action' : 'explore';

export interface RunContext extends MindContext {
  /** Aborted to stop: the cycle under way finishes, no other starts. */
  signal: AbortSignal;
  /** Told of each finished cycle. */
  onCycle: (report: LoopReport) => void;
}

export const mindRun = defineOperation({
  name: 'mind.run',
  summary: 'The internal loop: action and explore cycles alternate, with a reflection every few cycles, until stopped',
  input: z
    .object({
      /** Stop after this many cycles (default: until stopped). */
      cycles: z.number().int().min(1).optional(),
      reflectEvery: z.number().int().min(2).max(1_000).default(5),
      intervalSeconds: z.number().min(0).max(86_400).default(60),
    })
    .strict(),
  async run(ctx: RunContext, input): Promise<{ cycles: number }> {
    let n = 0;
    while (!ctx.signal.aborted && (input.cycles === undefined || n < input.cycles)) {
      const loop = loopOfCycle(n, input.reflectEvery);
      ctx.onCycle(await mindTrigger.run(ctx, { loop, situation: IDLE }));
      n += 1;
      if (input.cycles !== undefined && n >= input.cycles) break;
      await sleep(input.intervalSeconds * 1000, ctx.signal);
    }
    return { cycles: n };
  },
});

/** Waits, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
  });
}

/**
 * The mind's loops as operations (seed 004): one cycle on request (`mind trigger`), one chat
 * turn, and the internal loop (`mind run`). Reflection runs when the triggers say it is due
 * (triggers.ts), after a chat turn or between cycles, and on request.
 */
import { generateText } from 'ai';
import { z } from 'zod';
import { loadAgentConfig } from '../agent/config.js';
import { createAgentModel, modelFailure } from '../agent/providers.js';
import { systemClock } from '../core/clock.js';
import { HomunculusError } from '../core/errors.js';
import { loadConfig } from '../core/config.js';
import { homePaths } from '../core/paths.js';
import { runAction } from '../mind/action.js';
import { readGoals, readMemories } from '../mind/files.js';
import { instanceRoot, type InstancePaths, requireInstance } from '../mind/instance.js';
import { capability } from '../mind/kernel.js';
import { type Ask, checkPrompts, type LoopReport, noteFailure, runLoop, situation } from '../mind/loops.js';
import type { Loop } from '../mind/permissions.js';
import { DEFAULT_TRIGGERS, type Reason, reflectionReasons } from '../mind/triggers.js';
import { year, type MindContext } from './mind.js';
import { type MindIndex, openMindIndex } from './mind-recall.js';
import { defineOperation } from './operation.js';
import { wholeNumber } from './schemas.js';

/** The context's model, or the model of `agent.local` in config.json, as the loops' `ask`. */
function modelAsk(ctx: MindContext): Ask {
  const { model, cancel } = ctx;
  const cancelled = (err: unknown): unknown =>
    cancel?.aborted ? new HomunculusError('cancelled', 'Cancelled: the model was not waited for.') : err;
  if (model)
    return async (system, prompt) => {
      try {
        return (await generateText({ model, system, prompt, ...(cancel ? { abortSignal: cancel } : {}) })).text;
      } catch (err) {
        throw cancelled(err);
      }
    };
  const config = loadAgentConfig(loadConfig(homePaths(ctx.home).config));
  const agent = createAgentModel(config.local, 'local', ctx.env);
  return async (system, prompt) => {
    try {
      // A hung model must not hold a cycle (and `mind run`) for ever. No retries inside a step (the
      // SDK's default tries three times, 13 s for a model that is not there): `mind run` tries the
      // next cycle, with a longer pause after each failure, and a chat line says at once.
      const timeout = AbortSignal.timeout(config.turnTimeoutSeconds * 1000);
      const abortSignal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
      const settings = { model: agent.model, system, prompt, maxOutputTokens: agent.maxOutputTokens, abortSignal, maxRetries: 0 };
      return (await generateText(settings)).text;
    } catch (err) {
      throw cancelled(modelFailure(err, agent));
    }
  };
}

/** What a cycle needs: the instance, the model, and the recall index (closed by `done`). */
interface Session {
  paths: InstancePaths;
  ask: Ask;
  index: MindIndex;
}

async function withSession<T>(ctx: MindContext, fn: (s: Session) => Promise<T>): Promise<T> {
  const paths = requireInstance(instanceRoot(ctx.home));
  const ask = modelAsk(ctx);
  const index = await openMindIndex(paths.root, ctx.home, ctx.env, systemClock(ctx.env), ctx.note);
  try {
    return await fn({ paths, ask, index });
  } finally {
    await index.close();
  }
}

/** Why reflection is due now, from the whole memory log; `everyCycles` sets the periodic one. */
export function dueReasons(ctx: MindContext, paths: InstancePaths, everyCycles = DEFAULT_TRIGGERS.everyCycles): Reason[] {
  const now = systemClock(ctx.env).now();
  return reflectionReasons(readMemories(paths.data), readGoals(paths.data, year(ctx)), now, { ...DEFAULT_TRIGGERS, everyCycles });
}

/** The model failed, could not be reached or was not waited for: the cycle ends, the mind goes on (chat and run continue). */
const modelFailed = (err: unknown): err is HomunculusError =>
  err instanceof HomunculusError && ['model_failed', 'model_unreachable', 'cancelled'].includes(err.code);

/**
 * One cycle; `situation` is what the action loop responds to, `reasons` why a reflection runs.
 * A model failure ends it as failed, recorded by the kernel; any other error is ours and stops.
 */
async function cycle(ctx: MindContext, s: Session, loop: Loop, what: { situation?: string; reasons?: Reason[] }): Promise<LoopReport> {
  const clock = systemClock(ctx.env);
  const { recaller } = s.index;
  try {
    if (loop === 'action')
      return await runAction(s.paths, clock, s.ask, what.situation ?? situation(s.paths, 'idle'), { home: ctx.home, recaller });
    return await runLoop(loop, s.paths, clock, s.ask, { recaller, ...(what.reasons ? { reasons: what.reasons } : {}) });
  } catch (err) {
    if (!modelFailed(err)) throw err;
    const failure = `${err.message}${err.hint ? ` ${err.hint}` : ''}`;
    noteFailure(capability(loop, s.paths, clock), `The ${loop} cycle stopped: ${failure}`);
    return { loop, steps: [], writes: [], failure };
  }
}

export const mindTrigger = defineOperation({
  name: 'mind.trigger',
  summary: 'Run one cycle of a loop (action, explore or reflect) on the local model (agent.local)',
  input: z
    .object({
      loop: z.enum(['action', 'explore', 'reflect'], { error: 'must be action, explore or reflect' }),
      /** What the action loop responds to; without one it pursues its goals. */
      situation: z.string().trim().min(1, { error: 'must not be empty' }).max(10_000).optional(),
    })
    .strict()
    .refine((i) => i.situation === undefined || i.loop === 'action', {
      error: 'is for the action loop only: explore and reflect start from the goals and the memories',
      path: ['situation'],
    }),
  run: (ctx: MindContext, input): Promise<LoopReport> =>
    withSession(ctx, (s) => {
      if (input.loop !== 'reflect') return cycle(ctx, s, input.loop, input.situation ? { situation: input.situation } : {});
      const reasons = [...dueReasons(ctx, s.paths), { kind: 'requested' as const, detail: 'asked for (mind trigger reflect)' }];
      return cycle(ctx, s, 'reflect', { reasons });
    }),
});

export interface ChatTurn {
  /** The chosen skill's output: the chat skill's reply. */
  reply?: string;
  /** Why there is no reply: the model failed, was not waited for, or its answer was not usable (the cycle failed). */
  problem?: string;
  /** What the turn did instead of replying, when no skill answered but the model did not fail (a skill created, one that failed). */
  did?: string;
  action: LoopReport;
  /** The reflection the turn set off, when one became due. */
  reflection?: LoopReport;
}

export const mindChatTurn = defineOperation({
  name: 'mind.chat',
  summary: 'One turn of a conversation: the action loop answers the message, then reflection runs if it became due',
  input: z
    .object({
      message: z.string().trim().min(1, { error: 'must not be empty' }).max(10_000, { error: 'must be at most 10,000 characters' }),
    })
    .strict(),
  run: (ctx: MindContext, input): Promise<ChatTurn> =>
    withSession(ctx, async (s) => {
      // What the user said is theirs, kept whole (seed 004's `external` author), whatever the model makes of it.
      const said = { author: 'external' as const, weight: 0.5, situation: 'chat', description: input.message };
      checkPrompts(s.paths, 'action');
      capability('action', s.paths, systemClock(ctx.env)).keep(said);
      const action = await cycle(ctx, s, 'action', { situation: situation(s.paths, 'chat', { message: input.message }) });
      // Cancelled: the person wants the prompt back, not a reflection.
      const reasons = ctx.cancel?.aborted ? [] : dueReasons(ctx, s.paths);
      const reflection = reasons.length ? await cycle(ctx, s, 'reflect', { reasons }) : undefined;
      const answer = action.skillRan
        ? { reply: action.outcome ?? '' }
        : action.failure !== undefined
          ? { problem: action.failure }
          : { did: action.outcome ?? 'no skill ran' };
      return { ...answer, action, ...(reflection ? { reflection } : {}) };
    }),
});

/** The next loop of `mind run`: reflection when it is due, else action and explore in turn. Pure. */
export const nextLoop = (due: readonly Reason[], cyclesRun: number): Loop =>
  due.length ? 'reflect' : cyclesRun % 2 === 0 ? 'action' : 'explore';

export interface RunContext extends MindContext {
  /** Aborted to stop: the cycle under way finishes, no other starts. */
  signal: AbortSignal;
  /** Told of each finished cycle. */
  onCycle: (report: LoopReport) => void;
}

export const mindRun = defineOperation({
  name: 'mind.run',
  summary: 'The internal loop: action and explore cycles alternate; reflection runs when due (at least every few cycles) until stopped',
  input: z
    .object({
      /** Stop after this many cycles (default: until stopped). */
      cycles: wholeNumber(1, 1_000_000).optional(),
      reflectEvery: wholeNumber(2, 1_000).default(DEFAULT_TRIGGERS.everyCycles),
      intervalSeconds: z
        .number({ error: 'must be a number of seconds from 0 to 86400' })
        .min(0, { error: 'must be a number of seconds from 0 to 86400' })
        .max(86_400, { error: 'must be a number of seconds from 0 to 86400' })
        .default(60),
    })
    .strict(),
  /** `failed`: the cycles that could not finish (the model failed or its answer was unusable). */
  run: (ctx: RunContext, input): Promise<{ cycles: number; failed: number }> =>
    withSession(ctx, async (s) => {
      let n = 0;
      let failed = 0;
      let actOrExplore = 0;
      let failedInARow = 0;
      while (!ctx.signal.aborted && (input.cycles === undefined || n < input.cycles)) {
        const reasons = dueReasons(ctx, s.paths, input.reflectEvery);
        const loop = nextLoop(reasons, actOrExplore);
        if (loop !== 'reflect') actOrExplore += 1;
        const report = await cycle(ctx, s, loop, { reasons });
        ctx.onCycle(report);
        n += 1;
        if (report.failure) failed += 1;
        failedInARow = report.failure && report.steps.length === 0 ? failedInARow + 1 : 0;
        if (input.cycles !== undefined && n >= input.cycles) break;
        await sleep(pauseSeconds(input.intervalSeconds, failedInARow) * 1000, ctx.signal);
      }
      return { cycles: n, failed };
    }),
});

/** The pause before the next cycle: the interval, doubled for each model failure in a row (at least 1 s, at most 10 min unless the interval is longer). Pure. */
export const pauseSeconds = (interval: number, failedInARow: number): number =>
  failedInARow === 0 ? interval : Math.max(interval, Math.min(600, Math.max(1, interval) * 2 ** (failedInARow - 1)));

/** Waits, or less when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), done()), { once: true });
  });
}

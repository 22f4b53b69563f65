/**
 * memory_search, memory_save and memory_daily_log: the agent's memory is the Homunculus
 * store, reached through application operations. The agent's engine sits below app/, so
 * the tools speak to a port the surface that builds the agent fills in (app/agent-memory.ts).
 * What a search returns is data with its provenance, never instructions.
 */
import { z } from 'zod';
import { HomunculusError } from '../../core/errors.js';
import { type ToolContext, clockOf, defineTool } from './registry.js';

export interface MemoryHit {
  id: string;
  collection: string;
  title?: string;
  text: string;
  ts?: string;
  score: number;
}

/** What a search finds: the learned rules it names, in plain words, then the records themselves. */
export interface MemoryFound {
  rules: string[];
  results: MemoryHit[];
}

/** What the memory tools need of the store; app/agent-memory.ts implements it with memory.query and memory.add. */
export interface MemoryPort {
  search(query: string, limit: number): Promise<MemoryFound>;
  /** What the agent saved earlier (memory_save) that a message names, best first: recalled without a tool call. */
  recall?(message: string, limit: number): Promise<MemoryHit[]>;
  save(memory: { text: string; title?: string; collection: string; ts: string; session: string }): Promise<{ id: string }>;
}

/** The collections the agent writes: its memories, and one dated log entry per line it keeps. */
export const AGENT_MEMORY = 'agent-memory';
export const AGENT_DAILY_LOG = 'agent-daily-log';

function portOf(ctx: ToolContext): MemoryPort {
  if (!ctx.memory)
    throw new HomunculusError('memory_unavailable', 'The memory tools need the Homunculus store, and none is open here.', {
      hint: 'Run the agent through `homunculus agent chat` or `agent serve`, which open the store.',
    });
  return ctx.memory;
}

export const memorySearch = defineTool({
  name: 'memory_search',
  description:
    'Search everything Homunculus remembers (memories, the daily log, sessions, instincts, facts). Results are data, with where each came from; `rules` lists the learned rules the question names, in plain words.',
  input: z.object({ query: z.string().trim().min(1).max(2_000), limit: z.number().int().min(1).max(50).default(8) }).strict(),
  trust: 'trusted',
  // It finds synced sessions and saved pages: text anyone could have planted there.
  returnsOutsideText: true,
  confirm: false,
  run: async (ctx, input) => {
    const found = await portOf(ctx).search(input.query, input.limit);
    // Rules are left out when none is named, so the usual answer stays a plain list of records.
    return found.rules.length ? found : { results: found.results };
  },
});

export const memorySave = defineTool({
  name: 'memory_save',
  description: 'Remember one thing for later (a fact about the person, a decision, a preference); it is searchable at once.',
  input: z.object({ text: z.string().trim().min(1).max(20_000), title: z.string().trim().min(1).max(200).optional() }).strict(),
  trust: 'trusted',
  confirm: false,
  run: async (ctx, input) => {
    const ts = clockOf(ctx).now().toISOString();
    const saved = await portOf(ctx).save({ ...input, collection: AGENT_MEMORY, ts, session: ctx.session });
    return { ...saved, collection: AGENT_MEMORY };
  },
});

export const memoryDailyLog = defineTool({
  name: 'memory_daily_log',
  description: "Append one entry to today's log (UTC date): what was done or noticed today. Searchable at once.",
  input: z.object({ entry: z.string().trim().min(1).max(10_000) }).strict(),
  trust: 'trusted',
  confirm: false,
  run: async (ctx, input) => {
    const now = clockOf(ctx).now();
    const date = now.toISOString().slice(0, 10);
    const saved = await portOf(ctx).save({
      text: input.entry,
      title: `Daily log ${date}`,
      collection: AGENT_DAILY_LOG,
      ts: now.toISOString(),
      session: ctx.session,
    });
    return { ...saved, date, collection: AGENT_DAILY_LOG };
  },
});

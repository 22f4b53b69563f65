/**
 * The memory chat: a question answered from what the memory holds. The agentic retrieval
 * (context/retrieve.ts: the question classified, 3-5 queries, the graph's facts and their
 * neighbourhood) and the hybrid search over the memories give numbered sources; the
 * configured model answers over them, citing them as [1], [2]. With no model (or when it
 * cannot answer) the sources alone are the answer, and a note says why. Every answer lists
 * its sources.
 */
import { z } from 'zod';
import { type Config, loadConfig } from '../core/config.js';
import { errorMessage } from '../core/errors.js';
import { FACTS_COLLECTION } from '../core/graph-vocabulary.js';
import { agenticRetrieve } from '../context/retrieve.js';
import { formatThread, lastSession } from '../context/thread.js';
import { projectIn } from '../core/project-alias.js';
import { TokenBudget, generateWithinBudget } from '../llm/budget.js';
import { llmSectionHelp, loadLlmConfig } from '../llm/config.js';
import type { Embedder } from '../search/embeddings.js';
import { sanitizeQuery } from '../text/query.js';
import { CHAT_SYSTEM, type Source, SOURCES_PER_KIND, chatPrompt, checkCitations, numberSources } from './chat-answer.js';
import { embedderOnce, learnedRules, query } from './memory.js';
import { type AppContext, defineOperation, invoke } from './operation.js';
import { resolveProject } from './project-ref.js';
import { text } from './schemas.js';

/** The note of an answer without a model: the sources, and how to have a model answer. */
export const noModelNote = (config: Config): string =>
  `No model is configured in the "llm" section of config.json, so here are the sources the memory retrieved, best first. ${llmSectionHelp(config)}`;

interface ModelAnswer {
  answer: string | null;
  model: string | null;
  cited: number[];
  note?: string;
}

const answerSchema = z.object({ answer: z.string() });

/** The configured model's answer over the sources, or why there is none. */
async function modelAnswer(ctx: AppContext, question: string, sources: Source[]): Promise<ModelAnswer> {
  const none = { answer: null, model: null, cited: [] };
  try {
    const file = loadConfig(ctx.store.paths.config);
    const config = loadLlmConfig(file);
    if (!config) return { ...none, note: noModelNote(file) };
    if (sources.length === 0) return { ...none, note: 'Nothing in the memory matches this question, so the model was not asked.' };
    // Loaded only when a model is configured: the AI SDK costs ~0.3 s of start-up.
    const { createProvider } = await import('../llm/provider.js');
    const provider = createProvider(config, ctx.env);
    const budget = new TokenBudget(ctx.store.usage, config.budget, () => ctx.store.clock.now());
    const { object } = await generateWithinBudget(provider, budget, 'chat', {
      system: CHAT_SYSTEM,
      prompt: chatPrompt(question, sources),
      schema: answerSchema,
      maxOutputTokens: config.maxOutputTokens,
      timeoutMs: config.timeoutMs,
    });
    return { model: provider.model, ...checkCitations(object.answer, sources.length) };
  } catch (err) {
    return { ...none, note: `The model could not answer (${errorMessage(err)}); here are the sources the memory retrieved.` };
  }
}

/** A question about the last session ("what did we work on in the last session?") names it by when, not by its words. */
const LAST_SESSION = /\b(?:last|latest|previous|most recent|yesterday'?s)\s+(?:session|conversation|chat)\b|\blast time\b/i;

/** The last session of the project asked about (named, or the asking directory's), as a source; none when not asked. */
function lastSessionSource(ctx: AppContext, input: { question: string; project?: string; cwd?: string }): Omit<Source, 'n'>[] {
  if (!LAST_SESSION.test(input.question)) return [];
  const project = input.project ?? (input.cwd ? projectIn(input.cwd, ctx.store.paths.projectAliases).fingerprint : '');
  const last = lastSession(ctx.store, project);
  if (!last) return [];
  return [
    {
      kind: 'memory',
      title: "The project's last session",
      text: formatThread(last, 500),
      ts: last.when,
      ref: `sessions/${last.id}`,
    },
  ];
}

/** The shared embedder, or none: without one both retrievals rank by full-text search alone. */
async function embedderOrNone(ctx: AppContext): Promise<Embedder | null> {
  try {
    return await embedderOnce(ctx);
  } catch {
    return null;
  }
}

export const ask = defineOperation({
  name: 'chat.ask',
  summary:
    'Ask the memory a question: the configured model answers from retrieved facts and memories, citing them; without one, the sources alone',
  input: z.object({
    question: text(2000).refine((q) => sanitizeQuery(q).trim() !== '', { error: 'is empty: ask a question' }),
    // A fingerprint, or a name the project's sessions were seen under ("cli").
    project: text(200).optional(),
    /** The asking directory: its project's learned rules that the question names come along (`learned`). */
    cwd: text(4096).optional(),
    /** A project whose learned rules the question names come along, the sources not narrowed to it (the dashboard's chat). */
    rulesOf: text(200).optional(),
  }),
  async run(ctx, raw) {
    const input = { ...raw, project: raw.project === undefined ? undefined : resolveProject(ctx.store, raw.project) };
    const embedder = await embedderOrNone(ctx);
    const retrieval = await agenticRetrieve(ctx.store, { prompt: input.question, project: input.project, embedder });
    const search = await invoke(query, ctx, {
      query: input.question,
      limit: SOURCES_PER_KIND * 2,
      ...(input.project ? { project: input.project } : {}),
      ...(input.cwd ? { cwd: input.cwd } : {}),
      ...(embedder ? {} : { mode: 'bm25' as const }),
    });
    // The graph's facts come from the agentic retrieval; the search adds the other memories.
    const hits = search.results.filter((h) => h.collection !== FACTS_COLLECTION);
    const sources = numberSources(retrieval.facts, hits, input.question, lastSessionSource(ctx, input));
    const answer = await modelAnswer(ctx, input.question, sources);
    // What was learned here and the question names ("how do we run the tests"): the rule itself, beside the sources.
    const learned =
      input.rulesOf && search.learned.length === 0
        ? await learnedRules(ctx.store, { query: input.question, project: resolveProject(ctx.store, input.rulesOf) })
        : search.learned;
    return { question: input.question, ...answer, learned, sources, queries: retrieval.queries.map((q) => q.text) };
  },
});

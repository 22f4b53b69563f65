/**
 * What to inject with a prompt (the context injection): the thread of the last
 * session, the knowledge graph's answer to the task (chunked, formatted by memory type,
 * within per-category and overall budgets), and related projects, all sized by how full
 * the agent's context already is. Injected facts are recorded as accessed (ACT-R).
 */
import type { Embedder } from '../search/embeddings.js';
import { isBusyError, type Store } from '../store/store.js';
import { truncate } from '../core/text.js';
import { type ContextLevel, MAX_INJECTION_CHARS, categoryBudgets, graphBudget, levelFor } from './budget.js';
import { chunkFacts } from './chunking.js';
import type { TaskType } from './classify.js';
import { type RelatedProject, relatedProjects } from './cross-project.js';
import { FENCE_OVERHEAD, fenceMemory } from './fence.js';
import { oneLine } from './format.js';
import { formatFacts, plainFacts } from './graph-format.js';
import type { Category, GeneratedQuery } from './queries.js';
import { requiredMatches } from './prompt.js';
import { askedTerms } from './rank.js';
import { type RetrievedFact, agenticRetrieve } from './retrieve.js';
import { matchedTerms } from '../text/stem.js';
import { formatThread, lastSession } from './thread.js';
import type { TimeReference } from './time-reference.js';

export interface PromptContextOptions {
  prompt: string;
  /** Project fingerprint. */
  project?: string;
  /** How full the agent's context is, 0-100. */
  contextUsedPct?: number;
  contextWindowTokens?: number;
  /** The current session, left out of thread continuity. */
  sessionId?: string;
  /** Ranks facts by meaning too; the prompt hook and memory_context rank by BM25 alone. */
  embedder?: Embedder | null;
  /** Search the graph as true at this instant. */
  at?: string;
  /** Record injected facts as accessed (default true). */
  recordAccess?: boolean;
  /**
   * The prompt hook's rules: silence beats noise. Only facts of the learning, experience and
   * actor kinds (decisions, preferences, fixes) that share enough of the prompt's terms; no
   * last-session thread (session start has it) and no related projects.
   */
  strict?: boolean;
  /** With strict: prompt words that name where it was typed (the project's name). */
  ignore?: readonly string[];
}

export interface ContextChunk {
  category: Category;
  label: string;
  lines: string[];
  facts: number[];
}

export interface PromptContext {
  level: ContextLevel;
  budgets: { graph: number; thread: number; sections: number };
  task?: TaskType;
  queries: GeneratedQuery[];
  time?: TimeReference;
  thread?: string;
  chunks: ContextChunk[];
  related: RelatedProject[];
  facts: number[];
  /** The sections, not yet fenced: the prompt hook puts them in one block with the matching instincts. */
  body: string;
  /** The body fenced (fence.ts): what is injected. */
  text: string;
  chars: number;
}

function chunkLabel(items: readonly RetrievedFact[]): string {
  const counts = new Map<string, number>();
  for (const r of items) for (const n of [r.fact.source, r.fact.target]) counts.set(n, (counts.get(n) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
}

function graphChunks(retrieved: readonly RetrievedFact[], budget: number, scale: number): ContextChunk[] {
  const left = categoryBudgets(scale);
  let total = budget;
  const chunks = chunkFacts(
    retrieved.map((r) => ({ ...r, id: r.fact.id, text: `${r.fact.source} ${r.fact.target} ${r.fact.description}` })),
  );
  const out: ContextChunk[] = [];
  for (const chunk of chunks) {
    const label = chunkLabel(chunk.items);
    const heading = `### ${chunk.category}: ${oneLine(label, 80)}`;
    const room = Math.min(left[chunk.category], total) - heading.length - 1;
    if (room <= 0) continue;
    const formatted = formatFacts(
      chunk.items.map((r) => r.fact),
      room,
    );
    if (formatted.lines.length === 0) continue;
    const used = heading.length + 1 + formatted.chars;
    left[chunk.category] -= used;
    total -= used;
    out.push({ category: chunk.category, label, lines: [heading, ...formatted.lines], facts: formatted.ids });
  }
  return out;
}

/** The prompt hook's facts as one chunk of plain sentences (graph-format's plainFacts): no headings, ids or task. */
function plainChunk(retrieved: readonly RetrievedFact[], budget: number): ContextChunk[] {
  const formatted = plainFacts(
    retrieved.map((r) => r.fact),
    budget,
  );
  const first = retrieved[0];
  if (!first || formatted.lines.length === 0) return [];
  return [{ category: first.category, label: '', lines: formatted.lines, facts: formatted.ids }];
}

/** Kinds of facts worth a line beside a prompt: what was decided, preferred or learned. */
const PROMPT_KINDS = new Set(['learning', 'experience', 'actor']);
const NOT_FOR_PROMPTS = new Set(['works_on', 'blocked_by', 'solved_by', 'workaround_for', 'caused_by']);

/**
 * A fact of a kind worth a line beside a prompt (what was decided, preferred or learned) that
 * shares at least three of the prompt's terms: a fact is a whole sentence, and one or two
 * shared words (commit, changes) say nothing about it. Fixes of one error are left to the
 * learned fix instincts, which passed the gate across sessions; a user's correction of one
 * moment to the learned corrections, which recurred.
 */
export function worthInterrupting(r: RetrievedFact, terms: readonly string[]): boolean {
  if (!PROMPT_KINDS.has(r.fact.category) || NOT_FOR_PROMPTS.has(r.fact.relation)) return false;
  // "no, revert those changes" was about that moment: beside a later prompt it misleads (it can say the opposite of what is asked now).
  if (r.fact.metadata.signal === 'correction') return false;
  const shared = matchedTerms(terms, `${r.fact.source} ${r.fact.target} ${r.fact.description}`);
  // A long prompt (a pasted review, a log) shares three words with many facts: it must share a third of its terms.
  return shared >= Math.max(3, requiredMatches(terms.length), Math.ceil(terms.length / 3));
}

/** What the project is made of (a command it runs, a file it has): background beside any prompt. */
const MAKE_UP = new Set(['uses', 'has_component']);

/**
 * Make-up that one session alone showed (`md5` run once, a file edited once) is that session's,
 * not the project's: it comes only when the prompt names it. What a person added is always kept.
 */
export function oneSessionAside(r: RetrievedFact, sessions: number | undefined, terms: readonly string[]): boolean {
  return r.fact.origin === 'deterministic' && MAKE_UP.has(r.fact.relation) && sessions === 1 && matchedTerms(terms, r.fact.target) === 0;
}

/**
 * An error a session met ("mise run: golangci-lint goconst") and the files edited until it
 * passed come when the prompt names the error, not when it only names the command: "how do I
 * run the tests" is not about every lint rule `mise run` once failed on.
 */
export function errorAside(r: RetrievedFact, terms: readonly string[]): boolean {
  const { relation, origin, source, target } = r.fact;
  if (origin !== 'deterministic' || (relation !== 'solved_by' && relation !== 'blocked_by')) return false;
  const error = relation === 'solved_by' ? source : target;
  const colon = error.indexOf(': ');
  return colon > 0 && matchedTerms(terms, error.slice(colon + 2)) === 0;
}

export async function buildPromptContext(store: Store, options: PromptContextOptions): Promise<PromptContext> {
  const used = options.contextUsedPct ?? 0;
  const level = levelFor(used);
  const budget = graphBudget(used, options.contextWindowTokens);
  const result: PromptContext = {
    level: level.level,
    budgets: { graph: budget, thread: level.thread, sections: level.sections },
    queries: [],
    chunks: [],
    related: [],
    facts: [],
    body: '',
    text: '',
    chars: 0,
  };

  if (level.graph && budget > 0) {
    const retrieval = await agenticRetrieve(store, {
      prompt: options.prompt,
      project: options.project,
      embedder: options.embedder,
      at: options.at,
    });
    result.task = retrieval.task;
    result.queries = retrieval.queries;
    if (retrieval.time) result.time = retrieval.time;
    const terms = askedTerms(options.prompt, options.ignore);
    const sessions = options.strict ? new Map<number, number>() : store.graph.episodes.factSessions(retrieval.facts.map((r) => r.fact.id));
    const facts = options.strict
      ? retrieval.facts.filter((r) => worthInterrupting(r, terms))
      : retrieval.facts.filter((r) => !oneSessionAside(r, sessions.get(r.fact.id), terms) && !errorAside(r, terms));
    result.chunks = options.strict ? plainChunk(facts, budget) : graphChunks(facts, budget, level.scale);
    result.facts = result.chunks.flatMap((c) => c.facts);
    if (!options.strict && options.project && (level.level === 'full' || level.level === 'reduced'))
      result.related = relatedProjects(store, options.project);
  }

  let graph = '';
  if (result.chunks.length) {
    const about = [`task: ${result.task}`, ...(result.time ? [`as true on ${result.time.at.slice(0, 10)}`] : [])].join('; ');
    // Beside a prompt, plain sentences under a plain heading; `homunculus context` says the task it read.
    const heading = options.strict ? '## Said in earlier sessions of this project' : `## Knowledge graph (${about})`;
    graph = `${heading}\n${result.chunks.map((c) => c.lines.join('\n')).join('\n')}`;
  }
  let related = '';
  if (result.related.length) {
    const lines = result.related.map(
      (r) =>
        `- ${oneLine(r.name, 80)} (graph; relevance ${r.relevance}: shares ${oneLine([...r.shared_dependencies, ...r.shared_entities].slice(0, 5).join(', '), 200)})`,
    );
    related = truncate(`## Related projects\n${lines.join('\n')}`, level.sections);
  }
  // The thread takes what its level allows, within what the whole injection may hold.
  const threadRoom = Math.min(level.thread, MAX_INJECTION_CHARS - FENCE_OVERHEAD - graph.length - related.length - 40);
  const last = !options.strict && options.project && threadRoom > 0 ? lastSession(store, options.project, options.sessionId) : undefined;
  if (last) result.thread = formatThread(last, threadRoom);
  const parts = [result.thread ? `## Last session\n${result.thread}` : '', graph, related].filter(Boolean);
  result.body = parts.join('\n\n');
  result.text = fenceMemory(result.body, { max: MAX_INJECTION_CHARS });
  result.chars = result.text.length;

  if (options.recordAccess !== false && result.facts.length) countUse(store, result.facts);
  return result;
}

/** Counts the facts as used; a store another process keeps locked costs the count, never the context. */
function countUse(store: Store, facts: Parameters<Store['graph']['accesses']['record']>[0]): void {
  try {
    store.graph.accesses.record(facts, store.clock.now().toISOString(), 'retrieval');
  } catch (err) {
    if (!isBusyError(err)) throw err;
  }
}

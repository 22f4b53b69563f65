/**
 * The optional LLM observer (the observer agent, budgeted): given one session's
 * observations and the existing instincts, a model proposes patterns as structured output
 * validated by zod. They join the deterministic candidates and pass the same quality gate
 * and 3-session threshold. Any failure (budget, timeout, malformed answer) throws, and the
 * run keeps the deterministic result.
 */
import { z } from 'zod';
import { loadConfig } from '../core/config.js';
import { CATEGORIES, DOMAINS, type Domain, parseKey } from '../core/domain.js';
import { errorMessage } from '../core/errors.js';
import { readPrompt } from '../core/prompts.js';
import { authoredText, isClientText } from '../text/authored.js';
import { truncate } from '../core/text.js';
import { BYTES_PER_TOKEN_ESTIMATE, BudgetExceededError, TokenBudget, estimateTokens, generateWithinBudget } from '../llm/budget.js';
import { type LlmConfig, loadLlmConfig } from '../llm/config.js';
import type { LlmProvider } from '../llm/provider.js';
import type { InstinctRow } from '../store/instincts.js';
import type { Store } from '../store/store.js';
import type { Candidate } from './mine/candidate.js';
import { concreteTerms } from './mine/terms.js';
import type { Obs } from './observation.js';

interface ObserverInput {
  sessionId: string;
  observations: readonly Obs[];
  instincts: readonly InstinctRow[];
}

interface ObserverOutput {
  candidates: Candidate[];
  calls: number;
  tokens: number;
}

/** Throws on any failure (budget, timeout, bad output): the run then keeps the deterministic result. */
export interface SessionObserver {
  readonly name: string;
  extract(input: ObserverInput): Promise<ObserverOutput>;
}

const observerOutputSchema = z.object({
  patterns: z
    .array(
      z.object({
        pattern: z.string().min(3).max(300),
        category: z.enum(CATEGORIES),
        domain: z.enum(DOMAINS),
        title: z.string().min(3).max(160),
        trigger: z.string().min(3).max(400),
        action: z.string().min(3).max(600),
        evidence: z.string().max(600),
        subjects: z.array(z.string().max(160)).max(12),
        notable: z.boolean(),
        project_specific: z.boolean(),
      }),
    )
    .max(12),
});
type ObserverAnswer = z.infer<typeof observerOutputSchema>;

/** Below this many input tokens a session summary is too thin to be worth a call. */
const MIN_INPUT_TOKENS = 600;
const MAX_INSTINCTS_IN_PROMPT = 40;

/** The observer's instructions, kept in prompts/observer-system.md. */
export const observerSystem = (): string => readPrompt('observer-system');

function line(o: Obs): string {
  const time = o.ts.slice(11, 19);
  if (o.event === 'prompt') {
    // Claude Code's own wrappers (an accepted plan, a resumed conversation) are not the user speaking.
    if (isClientText(o.input)) return `[${time}] (${o.input.trimStart().slice(0, 40).replace(/\s+/g, ' ')}... pasted by the client)`;
    const own = authoredText(o.input);
    const pasted = own.length < o.input.trim().length ? ' (+ pasted material: a log, code, a review comment; not their words)' : '';
    return `[${time}] USER: ${truncate(own.replace(/\s+/g, ' '), 400)}${pasted}`;
  }
  if (o.event !== 'tool') return `[${time}] ${o.event}`;
  const status = o.outcome === 'ok' ? 'ok' : o.outcome.toUpperCase();
  const error = o.error ? ` => ${truncate(o.error, 240)}` : '';
  return `[${time}] ${o.tool} ${status}: ${truncate(o.input.replace(/\s+/g, ' '), 200)}${error}`;
}

/** The prompt, cut to fit `maxTokens` (by the budget's conservative estimate). */
export function buildPrompt(input: ObserverInput, maxTokens: number): string {
  const project = input.observations.find((o) => o.project)?.project ?? '';
  const name = input.observations.find((o) => o.projectName)?.projectName ?? '';
  const known = input.instincts
    .filter((r) => !project || r.project === project || r.project === '')
    .slice(0, MAX_INSTINCTS_IN_PROMPT)
    .map((r) => `- ${r.key}: ${truncate(r.trigger, 100)} -> ${truncate(r.action, 140)}`);
  const head = [
    `Existing instincts (reuse a key to reinforce it):`,
    ...(known.length ? known : ['(none)']),
    '',
    `Session ${input.sessionId} in project ${name || '(unknown)'}:`,
  ].join('\n');
  const budgetBytes = maxTokens * BYTES_PER_TOKEN_ESTIMATE - Buffer.byteLength(head) - 200;
  const lines: string[] = [];
  let used = 0;
  const events = input.observations.filter((o) => o.event === 'tool' || o.event === 'prompt');
  for (const o of events) {
    const l = line(o);
    const size = Buffer.byteLength(l) + 1;
    if (used + size > budgetBytes) break;
    lines.push(l);
    used += size;
  }
  const omitted = events.length - lines.length;
  return `${head}\n${lines.join('\n')}${omitted > 0 ? `\n(${omitted} later observations omitted for the token budget)` : ''}`;
}

export function answerToCandidates(answer: ObserverAnswer, input: ObserverInput): Candidate[] {
  const last = input.observations.reduce<Obs | undefined>((m, o) => (!m || o.at >= m.at ? o : m), undefined);
  const out: Candidate[] = [];
  for (const p of answer.patterns) {
    let parsed;
    try {
      parsed = parseKey(p.pattern);
    } catch {
      continue;
    }
    out.push({
      key: parsed.key,
      category: parsed.category,
      domain: p.domain as Domain,
      title: p.title,
      trigger: p.trigger,
      action: p.action,
      explain: p.evidence,
      project: p.project_specific ? (last?.project ?? '') : '',
      projectName: last?.projectName ?? '',
      sessionId: input.sessionId,
      ts: last?.ts ?? new Date(0).toISOString(),
      evidence: [`observer: ${truncate(p.evidence, 200)}`],
      subjects: [...new Set([...p.subjects, ...concreteTerms(`${p.trigger} ${p.action}`)])],
      miner: 'llm',
      notable: p.notable,
      tags: [p.domain, 'llm'],
    });
  }
  return out;
}

export function createLlmObserver(
  provider: LlmProvider,
  budget: TokenBudget,
  config: Pick<LlmConfig, 'maxOutputTokens' | 'timeoutMs'>,
): SessionObserver {
  return {
    name: `${provider.name}:${provider.model}`,
    async extract(input) {
      const available = budget.remaining() - config.maxOutputTokens - estimateTokens(observerSystem());
      if (available < MIN_INPUT_TOKENS) throw new BudgetExceededError(`LLM token budget exhausted (${budget.remaining()} tokens left).`);
      const prompt = buildPrompt(input, available);
      const result = await generateWithinBudget(provider, budget, 'observer', {
        system: observerSystem(),
        prompt,
        schema: observerOutputSchema,
        maxOutputTokens: config.maxOutputTokens,
        timeoutMs: config.timeoutMs,
      });
      const tokens = result.usage.inputTokens + result.usage.outputTokens;
      return { candidates: answerToCandidates(result.object, input), calls: 1, tokens };
    },
  };
}

/**
 * The configured model for one learning run: the session observer, and the graph builder's
 * `complete`, sharing one token budget; or a warning (invalid config, missing key) and none,
 * and learning stays deterministic.
 */
export async function observerFromConfig(
  store: Store,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ observer?: SessionObserver; complete?: (prompt: string) => Promise<string>; warning?: string }> {
  try {
    const config = loadLlmConfig(loadConfig(store.paths.config));
    if (!config) return {};
    // Loaded only when a model is configured: the AI SDK costs ~0.3 s of start-up.
    const { createProvider } = await import('../llm/provider.js');
    const provider = createProvider(config, env);
    const budget = new TokenBudget(store.usage, config.budget, () => store.clock.now());
    const { modelComplete } = await import('../graph/extract/model.js');
    return { observer: createLlmObserver(provider, budget, config), complete: modelComplete(provider, budget, config) };
  } catch (err) {
    const hint = (err as { hint?: string }).hint;
    return { warning: `${errorMessage(err)}${hint ? ` (${hint})` : ''} Learning continues with the deterministic miners only.` };
  }
}

/**
 * What the start and prompt hooks inject. Each function loads only the modules its own
 * hook needs: a hook pays for every import on every call.
 */
import type { Agent } from '../capture/agents.js';
import type { ProjectInfo } from '../core/project.js';
import type { Store } from '../store/store.js';
import type { StartContext } from './session-start.js';

/** How much of a prompt retrieval reads (the stored prompt is cut to the same length). */
const PROMPT_QUERY_CHARS = 4_000;

/**
 * Session start: convictions, the instincts ranked for the project and its stack, and the last
 * session; with `agent`, what it already reads in the project's rule files is left out.
 */
export async function startInjection(store: Store, project: ProjectInfo, sessionId?: string, agent?: Agent): Promise<StartContext> {
  const [{ sessionStartContext }, { detectStack }, { exportedKeys }] = await Promise.all([
    import('./session-start.js'),
    import('../core/stack.js'),
    import('./exported.js'),
  ]);
  const exported = agent ? exportedKeys(project.root, agent) : undefined;
  return sessionStartContext(store, { project, stack: detectStack(project.root), sessionId, ...(exported ? { exported } : {}) });
}

interface PromptInjectionInput {
  project: ProjectInfo;
  prompt: string;
  sessionId: string;
  /** Count the facts shown as used (their activation); false for a preview (default true). */
  record?: boolean;
  /** Instinct keys already in the agent's context (its session start, its earlier prompts): not given again. */
  skip?: ReadonlySet<string>;
  /** The agent: what it reads in the project's rule files is not given again either. */
  agent?: Agent;
  /** Told the instinct keys given, for the next prompt's `skip`. */
  onGiven?: (keys: string[]) => void;
}

/** A prompt: the instincts it clearly matches, then what the graph knows, in one fenced block within the injection cap. */
export async function promptInjection(store: Store, input: PromptInjectionInput): Promise<string> {
  const [{ promptContext, nameWords }, { buildPromptContext }, { MAX_INJECTION_CHARS }, { fenceMemory }] = await Promise.all([
    import('./prompt.js'),
    import('./build.js'),
    import('./budget.js'),
    import('./fence.js'),
  ]);
  // Retrieval reads the prompt's opening only: a pasted 20 MB log must not stall the agent.
  const query = input.prompt.slice(0, PROMPT_QUERY_CHARS);
  const exported = input.agent ? (await import('./exported.js')).exportedKeys(input.project.root, input.agent) : new Set<string>();
  const instincts = promptContext(store, input.project, query, {
    skip: new Set([...(input.skip ?? []), ...exported]),
    ...(input.onGiven ? { onGiven: input.onGiven } : {}),
  });
  const graph = await buildPromptContext(store, {
    prompt: query,
    project: input.project.fingerprint,
    sessionId: input.sessionId,
    strict: true,
    ignore: nameWords(input.project.name),
    recordAccess: input.record,
  });
  // Instincts first; the graph gets whatever room the cap leaves (the fence cuts from the end, never its closing tag).
  return fenceMemory([instincts, graph.body].filter(Boolean).join('\n\n'), { max: MAX_INJECTION_CHARS });
}

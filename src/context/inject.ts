/**
 * What the start and prompt hooks inject. Each function loads only the modules its own
 * hook needs: a hook pays for every import on every call.
 */
import type { ProjectInfo } from '../core/project.js';
import { truncate } from '../core/text.js';
import type { Store } from '../store/store.js';

/** How much of a prompt retrieval reads (the stored prompt is cut to the same length). */
const PROMPT_QUERY_CHARS = 4_000;

/** Session start: convictions and the instincts ranked for the project and its stack. */
export async function startInjection(store: Store, project: ProjectInfo): Promise<string> {
  const [{ sessionStartContext }, { detectStack }] = await Promise.all([import('./session-start.js'), import('../core/stack.js')]);
  return sessionStartContext(store, { project, stack: detectStack(project.root) });
}

interface PromptInjectionInput {
  project: ProjectInfo;
  prompt: string;
  sessionId: string;
}

/** A prompt: the instincts it clearly matches, then what the graph knows, within the injection cap. */
export async function promptInjection(store: Store, input: PromptInjectionInput): Promise<string> {
  const [{ promptContext }, { buildPromptContext }, { MAX_INJECTION_CHARS }] = await Promise.all([
    import('./prompt.js'),
    import('./build.js'),
    import('./budget.js'),
  ]);
  // Retrieval reads the prompt's opening only: a pasted 20 MB log must not stall the agent.
  const query = input.prompt.slice(0, PROMPT_QUERY_CHARS);
  const instincts = promptContext(store, input.project, query);
  const graph = await buildPromptContext(store, { prompt: query, project: input.project.fingerprint, sessionId: input.sessionId });
  // Instincts first; the graph section gets whatever room the 10,000-character cap leaves.
  const room = MAX_INJECTION_CHARS - instincts.length - 2;
  const graphText = room > 200 ? truncate(graph.text, room) : '';
  return [instincts, graphText].filter(Boolean).join('\n\n');
}

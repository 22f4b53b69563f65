/**
 * The registry's tools as the AI SDK sees them, for one turn of the loop. The SDK only shows
 * the model each schema: the registry validates, checks, asks for a yes and audits, so every
 * call the model makes, refused or not, is in the audit log, shown to the person, and
 * answered in plain words.
 */
import { InvalidToolInputError, type ToolSet, jsonSchema, tool, zodSchema } from 'ai';
import type { z } from 'zod';
import type { LoopDeps } from './loop.js';
import { observeToolCall } from './observe.js';
import type { ToolCallView, TurnRequest } from './runner.js';
import { type ToolContext, bringsOutsideText } from './tools/registry.js';
import { type TurnState, outputText } from './turn-state.js';

type Deps = Pick<LoopDeps, 'registry' | 'toolContext' | 'store' | 'clock' | 'project'>;

const contextOf = (deps: Deps, request: TurnRequest): ToolContext => ({ ...deps.toolContext, session: request.session });

/** `value` read by `schema` (its defaults filled in) when it fits, else as it came. Pure. */
function fitted(schema: z.ZodType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : value;
}

/** A call that ended: kept for the turn's result, shown, and observed for learning. */
function called(
  deps: Deps,
  state: TurnState,
  request: TurnRequest,
  view: ToolCallView,
  started: number,
  result: { output?: unknown; error?: string },
) {
  state.calls.set(view.id, view);
  request.onToolCall?.(view);
  observeToolCall(deps.store, {
    session: request.session,
    ts: deps.clock.now().toISOString(),
    cwd: deps.toolContext.workspace,
    project: deps.project,
    toolCallId: view.id,
    tool: view.tool,
    input: view.input,
    durationMs: performance.now() - started,
    ...result,
  });
}

/** The tools that write what later sessions recall into their prompts. */
const MEMORY_WRITES = new Set(['memory_save', 'memory_daily_log']);

/** The tool set of one turn: each call goes through the registry; only one the person approved runs with a yes. */
export function modelTools(deps: Deps, state: TurnState, request: TurnRequest): ToolSet {
  const set: ToolSet = {};
  for (const t of deps.registry.list())
    set[t.name] = tool({
      description: t.description,
      // Input that fits is read with its defaults; input that does not goes on to the registry, which
      // refuses it, audited, shown and in plain words, where the SDK would answer with zod's issue dump.
      inputSchema: jsonSchema(() => zodSchema(t.input).jsonSchema, {
        validate: (value) => ({ success: true, value: fitted(t.input, value) }),
      }),
      // A call the registry refuses anyway (bad input, a command that needs a shell) is not put to a person.
      // A memory write after outside text came in is asked too: a fetched page must not plant what later sessions recall.
      needsApproval: async (input: unknown) =>
        (t.confirm || (MEMORY_WRITES.has(t.name) && state.outside)) &&
        !(await deps.registry.refusal(t.name, input, contextOf(deps, request))),
      execute: async (input: unknown, { toolCallId }) => {
        const view: ToolCallView = { id: toolCallId, tool: t.name, input };
        request.onToolCall?.(view);
        const started = performance.now();
        // The registry asks again: only a call the person approved passes.
        const outcome = await deps.registry.run(t.name, input, {
          ...contextOf(deps, request),
          ...(state.approved.has(toolCallId) ? { confirm: async () => true } : {}),
        });
        if (outcome.ok && bringsOutsideText(t)) state.outside = true;
        const done = outcome.ok ? { ...view, output: outputText(outcome.output) } : { ...view, refused: outcome.error };
        called(deps, state, request, done, started, outcome.ok ? { output: outcome.output } : { error: outcome.error });
        const returned = outcome.ok ? outcome.output : { error: outcome.error, ...(outcome.hint ? { hint: outcome.hint } : {}) };
        state.ran.set(toolCallId, returned);
        return returned;
      },
    });
  return set;
}

/** A call the SDK could not read (no such tool, arguments that are not JSON): refused through the registry, so it is audited and shown. */
export function refuseUnreadable(
  deps: Deps,
  state: TurnState,
  request: TurnRequest,
  part: { toolCallId: string; toolName: string; input: unknown; error: unknown },
): void {
  const why = InvalidToolInputError.isInstance(part.error)
    ? `Bad input for ${part.toolName}: its arguments are not valid JSON.`
    : String((part.error as Error)?.message ?? part.error);
  const refused = deps.registry.refuse(part.toolName, part.input, contextOf(deps, request), why);
  const view = { id: part.toolCallId, tool: part.toolName, input: part.input, refused: refused.error };
  called(deps, state, request, view, performance.now(), { error: refused.error });
}

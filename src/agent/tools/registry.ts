/**
 * The agent's tools: each declares its name, what it does, one zod input schema, how far it
 * reaches (its trust level) and whether a person must say yes before it runs. The registry
 * validates the input, asks for confirmation (with nobody to ask, a tool that needs it is
 * refused: Hermes approved dangerous commands when nobody answered), runs the tool, and
 * writes every run, refused or not, to the audit log. Later tools (web_fetch, mqtt, memory)
 * register the same way.
 */
import { z } from 'zod';
import { type Clock, systemClock } from '../../core/clock.js';
import { HomunculusError } from '../../core/errors.js';
import { appendAudit } from '../audit.js';
import type { SandboxLimits } from '../sandbox.js';
import { inputProblem } from './input-errors.js';
import type { MemoryPort } from './memory.js';
import type { MqttPolicy } from './mqtt.js';
import type { WebPolicy } from './web-fetch.js';

/**
 * How far a tool reaches, and so how much its effects and output must be distrusted:
 * `trusted` has no side effects (echo, the clock); `workspace` reads or writes only the
 * workspace; `sandboxed` runs arbitrary programs inside the sandbox; `external` reaches the
 * network or other services (web_fetch, mqtt).
 */
export type TrustLevel = 'trusted' | 'workspace' | 'sandboxed' | 'external';

/**
 * Whether what a tool returns comes from outside the agent (a page, a file, a command's output,
 * a recalled transcript): every tool but a trusted one, and a trusted one that says so.
 */
export const bringsOutsideText = (tool: { trust: TrustLevel; returnsOutsideText?: boolean } | undefined): boolean =>
  tool !== undefined && (tool.trust !== 'trusted' || tool.returnsOutsideText === true);

export interface ConfirmRequest {
  tool: string;
  input: unknown;
  trust: TrustLevel;
}

export interface ToolContext {
  /** The workspace directory (created by `agent init`). */
  workspace: string;
  /** The Homunculus home, hidden from sandboxed commands. */
  home: string;
  session: string;
  /** Asks a person; absent when nobody can answer, and then tools that need a yes are refused. */
  confirm?: (request: ConfirmRequest) => Promise<boolean>;
  /** The audit log every run is written to; absent, nothing is written (tests of single tools). */
  auditLog?: string;
  sandbox?: { limits?: Partial<SandboxLimits>; bwrap?: string; userHome?: string };
  clock?: Clock;
  /** web_fetch's allow-list of private origins and its limits (config.json agent.web). */
  web?: Partial<WebPolicy>;
  /** The MQTT broker the mqtt tools reach (config.json agent.mqtt); absent, they refuse with the fix. */
  mqtt?: MqttPolicy;
  /** The Homunculus store, through application operations (the agent layer sits below app/). */
  memory?: MemoryPort;
}

export interface Tool<S extends z.ZodType = z.ZodType, R = unknown> {
  name: string;
  description: string;
  input: S;
  trust: TrustLevel;
  /** A trusted tool whose results were written elsewhere all the same (recalled transcripts, saved pages). */
  returnsOutsideText?: boolean;
  /** A person must say yes before each run. */
  confirm: boolean;
  /** Refusals that need no person (a path outside, a command that needs a shell): they throw before anyone is asked. */
  check?(ctx: ToolContext, input: z.output<S>): void | Promise<void>;
  run(ctx: ToolContext, input: z.output<S>): R | Promise<R>;
}

export function defineTool<S extends z.ZodType, R>(tool: Tool<S, R>): Tool<S, R> {
  return tool;
}

export type ToolOutcome =
  { ok: true; tool: string; output: unknown } | { ok: false; tool: string; error: string; hint?: string; refused?: Refusal };

/** Why a call did not run: no such tool, bad input, the tool's own check, nobody to confirm, or a no. */
export type Refusal = 'unknown' | 'input' | 'check' | 'unconfirmed' | 'declined';

type Refused = Extract<ToolOutcome, { ok: false }>;

/** zod's complaints as one line naming each field. Pure. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const at = i.path.join('.');
      // "the input: Unrecognized key: "modle"" read as garbled: the key is what is wrong.
      if (i.code === 'unrecognized_keys')
        return `${at ? `${at}: ` : ''}${i.keys.map((k) => JSON.stringify(k)).join(', ')} ${i.keys.length > 1 ? 'are not keys' : 'is not a key'} it takes`;
      return `${at || 'the input'}: ${i.message}`;
    })
    .join('; ');
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: readonly Tool[] = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new HomunculusError('tool_exists', `A tool named ${tool.name} is registered already.`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  /** What a model is told about each tool: name, description, JSON Schema of the input. */
  definitions(): { name: string; description: string; inputSchema: unknown; trust: TrustLevel; confirm: boolean }[] {
    return this.list().map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: z.toJSONSchema(t.input),
      trust: t.trust,
      confirm: t.confirm,
    }));
  }

  /** Validates, confirms, runs and audits one call; never throws for what the tool or its input did wrong. */
  async run(name: string, raw: unknown, ctx: ToolContext): Promise<ToolOutcome> {
    const started = performance.now();
    const outcome = await this.outcome(name, raw, ctx);
    this.audit(name, raw, ctx, outcome, started);
    return outcome;
  }

  /** The refusal a call gets before anyone is asked to confirm it (unknown tool, bad input, the tool's check); undefined when none. */
  async refusal(name: string, raw: unknown, ctx: ToolContext): Promise<Refused | undefined> {
    const checked = await this.checked(name, raw, ctx);
    return 'refused' in checked ? checked.refused : undefined;
  }

  /** Audits a call refused before it reached the registry (the model's SDK could not read it), and says why. */
  refuse(name: string, raw: unknown, ctx: ToolContext, error: string): Refused {
    const outcome: Refused = this.tools.has(name) ? { ok: false, tool: name, refused: 'input', error } : this.unknown(name);
    this.audit(name, raw, ctx, outcome, performance.now());
    return outcome;
  }

  private audit(name: string, raw: unknown, ctx: ToolContext, outcome: ToolOutcome, started: number): void {
    if (ctx.auditLog)
      appendAudit(ctx.auditLog, {
        action: 'tool_exec',
        session: ctx.session,
        subject: name,
        ok: outcome.ok,
        input: raw,
        output: outcome.ok ? outcome.output : outcome.error,
        durationMs: performance.now() - started,
      });
  }

  private unknown(name: string): Refused {
    return {
      ok: false,
      tool: name,
      refused: 'unknown',
      error: `No tool is named ${JSON.stringify(name)}.`,
      hint: `The tools are: ${[...this.tools.keys()].join(', ')}.`,
    };
  }

  /** The tool and its parsed input, or why the call is refused before any confirmation. */
  private async checked(name: string, raw: unknown, ctx: ToolContext): Promise<{ tool: Tool; input: unknown } | { refused: Refused }> {
    const tool = this.tools.get(name);
    if (!tool) return { refused: this.unknown(name) };
    const parsed = tool.input.safeParse(raw, { reportInput: true });
    if (!parsed.success) return { refused: { ok: false, tool: name, refused: 'input', ...inputProblem(tool, parsed.error) } };
    try {
      await tool.check?.(ctx, parsed.data);
    } catch (err) {
      const hint = err instanceof HomunculusError ? err.hint : undefined;
      return { refused: { ok: false, tool: name, refused: 'check', error: (err as Error).message, ...(hint ? { hint } : {}) } };
    }
    return { tool, input: parsed.data };
  }

  private async outcome(name: string, raw: unknown, ctx: ToolContext): Promise<ToolOutcome> {
    const checked = await this.checked(name, raw, ctx);
    if ('refused' in checked) return checked.refused;
    const { tool, input } = checked;
    if (tool.confirm) {
      if (!ctx.confirm)
        return {
          ok: false,
          tool: name,
          refused: 'unconfirmed',
          error: `${name} needs a person's confirmation and nobody can give it here, so it did not run.`,
          hint: 'Run it from `homunculus agent chat`, or confirm it over the gateway.',
        };
      if (!(await ctx.confirm({ tool: name, input, trust: tool.trust })))
        return { ok: false, tool: name, refused: 'declined', error: `${name} was declined, so it did not run.` };
    }
    try {
      return { ok: true, tool: name, output: await tool.run(ctx, input) };
    } catch (err) {
      const hint = err instanceof HomunculusError ? err.hint : undefined;
      return { ok: false, tool: name, error: (err as Error).message, ...(hint ? { hint } : {}) };
    }
  }
}

/** The clock a tool reads: the context's, else the system's (HOMUNCULUS_NOW freezes it). */
export const clockOf = (ctx: ToolContext): Clock => ctx.clock ?? systemClock();

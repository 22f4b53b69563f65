/**
 * Puts the agent together from its config: the two models, the budget over the store, the
 * built-in tools, the prompt builder over the workspace and the memory, the audit log. The
 * surfaces (terminal chat, gateway) open one of these per process.
 */
import type { Clock } from '../core/clock.js';
import { HomunculusError } from '../core/errors.js';
import type { Config } from '../core/config.js';
import { homePaths } from '../core/paths.js';
import { type ProjectInfo, fingerprintOf } from '../core/project.js';
import type { Store } from '../store/store.js';
import { BudgetTracker } from './budget.js';
import { type AgentConfig, loadAgentConfig } from './config.js';
import { AgentLoop } from './loop.js';
import { type SkillMatcher, buildSystemPrompt } from './prompt.js';
import { type AgentModel, createAgentModel } from './providers.js';
import { builtinRegistry } from './tools/builtin.js';
import type { MemoryHit, MemoryPort } from './tools/memory.js';
import { toolAvailable } from './tools/mqtt.js';
import { type Tool, type ToolContext, ToolRegistry } from './tools/registry.js';

export interface RuntimeOptions {
  store: Store;
  home: string;
  config: Config;
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  /** The tools; the built-in ones when absent. */
  registry?: ToolRegistry;
  skills?: SkillMatcher;
  /** The persona it speaks as (agents/<agent>/SOUL.md); default when absent. */
  agent?: string;
  /** Only these of the registry's tools (a persona's `tools`); all when absent. */
  allowTools?: readonly string[];
  /** Tools only this agent has (the handoff). */
  extraTools?: readonly Tool[];
  /** What the network and memory tools reach (config.json agent.web / agent.mqtt, the store); absent, they refuse with the fix. */
  services?: Pick<ToolContext, 'web' | 'mqtt' | 'memory'>;
}

/** The workspace as the agent's project: one fingerprint for everything it learns there. Pure. */
export const workspaceProject = (workspace: string): ProjectInfo => ({
  fingerprint: fingerprintOf(`homunculus-agent:${workspace}`),
  name: 'homunculus-agent',
  root: workspace,
  remote: null,
});

export interface AgentRuntime {
  loop: AgentLoop;
  budget: BudgetTracker;
  config: AgentConfig;
}

/** The port's recall as the prompt builder takes it. */
const recallWith =
  (port: MemoryPort) =>
  (message: string): Promise<MemoryHit[]> =>
    port.recall ? port.recall(message, 3) : Promise.resolve([]);

/**
 * The remote model, or why it cannot be used: a missing API key must not stop the local model
 * from answering what it would answer anyway.
 */
function remoteModel(config: AgentConfig['remote'], env?: NodeJS.ProcessEnv): { remote?: AgentModel; remoteProblem?: string } {
  if (!config) return {};
  try {
    return { remote: createAgentModel(config, 'remote', env) };
  } catch (err) {
    if (!(err instanceof HomunculusError) || err.code !== 'llm_key') throw err;
    return { remoteProblem: `${err.message} ${err.hint ?? ''}`.trim() };
  }
}

export function createAgentRuntime(o: RuntimeOptions): AgentRuntime {
  const config = loadAgentConfig(o.config);
  const paths = homePaths(o.home);
  const base = o.registry ?? builtinRegistry();
  const allowed = o.allowTools;
  // With no broker configured the MQTT tools could only fail: the model is not offered them.
  const offered = (t: Tool) => (!allowed || allowed.includes(t.name)) && toolAvailable(t.name, o.services ?? {});
  const registry =
    allowed || o.extraTools?.length || base.list().some((t) => !offered(t))
      ? new ToolRegistry([...base.list().filter(offered), ...(o.extraTools ?? [])])
      : base;
  const budget = new BudgetTracker(o.store.agentCalls, config.budget, o.clock);
  const project = workspaceProject(paths.workspace);
  const sources = {
    store: o.store,
    workspace: paths.workspace,
    agent: o.agent ?? 'default',
    project,
    registry,
    auditLog: paths.audit,
    ...(o.skills ? { skills: o.skills } : {}),
    ...(o.services?.memory?.recall ? { recall: recallWith(o.services.memory) } : {}),
  };
  const loop = new AgentLoop({
    store: o.store,
    registry,
    toolContext: { workspace: paths.workspace, home: o.home, auditLog: paths.audit, clock: o.clock, ...o.services },
    config,
    models: { local: createAgentModel(config.local, 'local', o.env), ...remoteModel(config.remote, o.env) },
    budget,
    systemPrompt: (message, session) => buildSystemPrompt(sources, message, session),
    clock: o.clock,
    project,
    stream: config.stream,
    agent: o.agent ?? 'default',
  });
  return { loop, budget, config };
}

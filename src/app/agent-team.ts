/**
 * The personal agent as a team (seed 001): the manager in the calling thread, one worker
 * thread per persona (started on its first message), and what `agent agents` and `agent
 * skills` report. A worker opens its own store connection and builds its own runtime
 * (openAgentThread): the threads share nothing but the database and the files.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { AgentManager } from '../agent/agent-manager.js';
import { preferModel } from '../agent/agent-worker.js';
import { loadAgentConfig } from '../agent/config.js';
import { type Handoff, HandoffBox, handoffTool } from '../agent/handoff.js';
import { type Persona, type Skipped, loadPersonas } from '../agent/persona.js';
import type { AgentRunner } from '../agent/runner.js';
import { type AgentRuntime, createAgentRuntime } from '../agent/runtime.js';
import { type Skill, loadSkills, matchSkills } from '../agent/skills.js';
import { loadToolSettings } from '../agent/tool-config.js';
import { builtinRegistry } from '../agent/tools/builtin.js';
import { loadConfig } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { homePaths } from '../core/paths.js';
import { storeMemory } from './agent-memory.js';
import { type AppContext, defineOperation } from './operation.js';
import type { SetupContext } from './setup.js';

const toolNames = (): string[] =>
  builtinRegistry()
    .list()
    .map((t) => t.name);

/** One agent's runtime, as its worker thread builds it: its persona, tools, model preference, skills and handoff. */
export function openAgentThread(
  ctx: AppContext,
  agent: string,
): { runtime: AgentRuntime; runner: AgentRunner; takeHandoff: (s: string) => Handoff | undefined } {
  const config = loadConfig(ctx.store.paths.config);
  const { web, mqtt } = loadToolSettings(config, ctx.env);
  const workspace = homePaths(ctx.store.paths.home).workspace;
  const { personas } = loadPersonas(workspace);
  const persona = personas.find((p) => p.name === agent);
  if (!persona) throw new UsageError(`No agent is named ${JSON.stringify(agent)}.`, 'See `homunculus agent agents`.');
  const box = new HandoffBox();
  const names = toolNames();
  const runtime = createAgentRuntime({
    store: ctx.store,
    home: ctx.store.paths.home,
    config,
    clock: ctx.store.clock,
    env: ctx.env,
    agent,
    ...(persona.tools ? { allowTools: persona.tools } : {}),
    extraTools:
      personas.length > 1
        ? [
            handoffTool(
              agent,
              personas.map((p) => p.name),
              box,
            ),
          ]
        : [],
    // Read per message, so an edited skill counts from the next message on.
    skills: (message) => matchSkills(loadSkills(workspace, names).skills, message),
    services: { web, ...(mqtt ? { mqtt } : {}), memory: storeMemory(ctx) },
  });
  const prefer = preferModel(runtime.loop.modes, persona.model);
  const runner: AgentRunner = {
    turn: (r) => (prefer(r.session), runtime.loop.turn(r)),
    confirm: (id, answer, hooks) => runtime.loop.confirm(id, answer, hooks),
  };
  return { runtime, runner, takeHandoff: (s) => box.take(s) };
}

/** The worker's entry file; run from src/ (tests), the built one in dist/, since a thread cannot load TypeScript. */
function workerEntry(): URL {
  const here = new URL('./agent-worker-main.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  return new URL(here.href.replace('/src/app/', '/dist/app/'));
}

export interface AgentTeam {
  runner: AgentManager;
  personas: Persona[];
  close(): Promise<void>;
}

/** The manager over one thread per persona, for a surface to talk through (an invalid config throws with the fix). */
export function openAgentTeam(ctx: AppContext): AgentTeam {
  const config = loadAgentConfig(loadConfig(ctx.store.paths.config));
  const paths = homePaths(ctx.store.paths.home);
  const { personas, skipped } = loadPersonas(paths.workspace);
  const entry = workerEntry();
  const runner = new AgentManager({
    personas,
    skipped,
    spawn: (agent) => new Worker(entry, { workerData: { home: paths.home, agent }, env: { ...ctx.env } }),
    turnTimeoutMs: config.turnTimeoutSeconds * 1000,
    auditLog: paths.audit,
  });
  return { runner, personas, close: () => runner.close() };
}

export interface AgentsReport {
  agents: (Omit<Persona, 'soul'> & { unknownTools: string[] })[];
  skipped: Skipped[];
}

export const agentAgents = defineOperation({
  name: 'agent.agents',
  summary: 'List the agents (workspace/agents/<name>/SOUL.md): their tools, model preference and routing keywords, and why any was skipped',
  input: z.object({}),
  run(ctx: SetupContext): AgentsReport {
    const { personas, skipped } = loadPersonas(homePaths(ctx.home).workspace);
    const names = toolNames();
    return {
      agents: personas.map(({ soul: _soul, ...p }) => ({ ...p, unknownTools: (p.tools ?? []).filter((t) => !names.includes(t)) })),
      skipped,
    };
  },
});

export const agentSkills = defineOperation({
  name: 'agent.skills',
  summary: 'List the skills (workspace/skills/<name>/SKILL.md) loaded, their triggers and tools, and why any was skipped',
  input: z.object({}),
  run(ctx: SetupContext): { skills: Omit<Skill, 'body'>[]; skipped: Skipped[] } {
    const { skills, skipped } = loadSkills(homePaths(ctx.home).workspace, toolNames());
    return { skills: skills.map(({ body: _body, ...s }) => s), skipped };
  },
});

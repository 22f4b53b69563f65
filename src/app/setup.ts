/**
 * Setting up: creating the home, wiring agents to Homunculus (their hooks and MCP server),
 * undoing that, and diagnosing the result. These run against the user's directories rather
 * than an open store, which `uninstall` and `doctor` must not create.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AGENTS, type Agent } from '../capture/agents.js';
import { applyPlan } from '../capture/install/apply.js';
import { hookCommandPrefix } from '../capture/install/command.js';
import { type FileChange, type Plan, planInstall, planUninstall } from '../capture/install/plan.js';
import { InstallState } from '../capture/install/state.js';
import { refuseSecondScope } from '../capture/install/installed.js';
import { projectIsHome, refuseProjectAtHome, type Scope, targetFor } from '../capture/install/targets.js';
import { HomunculusError } from '../core/errors.js';
import { homePaths, resolveHome } from '../core/paths.js';
import { openStore } from '../store/store.js';
import { renderAll } from '../view/render.js';
import { type CheckResult, runDoctor } from './doctor.js';
import { defineOperation } from './operation.js';
import { oneOf, text } from './schemas.js';

export interface SetupContext {
  /** The Homunculus home (database, readable files, install state). */
  home: string;
  /** The user's home directory, where agents keep their user settings. */
  userHome: string;
  /** The project, where agents keep project settings. */
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface InstallReport {
  agent: Agent;
  scope: Scope;
  dry_run: boolean;
  files: { file: string; action: FileChange['action']; diff?: string }[];
  warnings: string[];
  notes: string[];
}

function report(plan: Plan, dryRun: boolean, written: readonly FileChange[]): InstallReport {
  const changes = dryRun ? plan.changes : plan.changes.map((c) => (written.includes(c) ? c : { ...c, action: 'unchanged' as const }));
  return {
    agent: plan.target.agent,
    scope: plan.target.scope,
    dry_run: dryRun,
    files: changes.map((c) => ({ file: c.file, action: c.action, ...(dryRun && c.diff ? { diff: c.diff } : {}) })),
    warnings: plan.warnings,
    notes: plan.target.notes,
  };
}

const stateOf = (ctx: SetupContext): InstallState => new InstallState(join(ctx.home, 'install'));

const agentsInput = () => z.array(oneOf(AGENTS), { error: `must be a list of agents (${AGENTS.join(', ')})` }).max(AGENTS.length);

const installInput = z.object({
  agents: agentsInput(),
  scope: oneOf(['user', 'project']).default('user'),
  dryRun: z.boolean().default(false),
  /** How hooks start Homunculus; by default `homunculus` on PATH, else this node and this installation. */
  command: text(1000)
    .refine((c) => c.trim() !== '', { error: 'must not be empty' })
    .optional(),
  mcp: z.boolean().default(true),
});

function installAgents(ctx: SetupContext, i: z.output<typeof installInput>): InstallReport[] {
  const chosen = i.command === undefined ? hookCommandPrefix(ctx.env) : { prefix: i.command.trim() };
  // A home other than ~/.homunculus (`--home DIR`, $HOMUNCULUS_HOME, which an agent started from a
  // launcher does not inherit) goes into every hook and server entry.
  const home = ctx.home === resolveHome(undefined, { HOME: ctx.userHome }) ? undefined : ctx.home;
  return i.agents.map((agent) => {
    const plan = planInstall(targetFor(agent, i.scope, ctx.userHome, ctx.cwd), chosen.prefix, { mcp: i.mcp, home });
    const r = report(plan, i.dryRun, i.dryRun ? [] : applyPlan(plan, 'install', stateOf(ctx)));
    const notes = [...r.notes, ...('note' in chosen && chosen.note ? [chosen.note] : [])];
    return { ...r, notes };
  });
}

export const init = defineOperation({
  name: 'setup.init',
  summary: 'Create the store and the readable layout (safe to run again); for each agent named, install its hooks and MCP server',
  input: installInput,
  run(ctx: SetupContext, i): { home: string; database?: string; agents: InstallReport[] } {
    if (i.scope === 'project' && i.agents.length) refuseProjectAtHome(ctx.userHome, ctx.cwd);
    // Refused before anything is written, a dry run included (it shows what a real run would do).
    for (const agent of i.agents) refuseSecondScope(agent, i.scope, ctx.userHome, ctx.cwd);
    // A dry run shows the agents' diffs and creates nothing, not even the home.
    if (i.dryRun) return { home: ctx.home, agents: installAgents(ctx, i) };
    const store = openStore({ home: ctx.home });
    try {
      renderAll(store);
      return { home: store.paths.home, database: store.paths.db, agents: installAgents(ctx, i) };
    } finally {
      store.close();
    }
  },
});

export const uninstall = defineOperation({
  name: 'setup.uninstall',
  summary: 'Remove exactly the hooks and MCP server init added (every agent when none is named; both scopes when no scope is)',
  input: z.object({ agents: agentsInput(), scope: oneOf(['user', 'project']).optional(), dryRun: z.boolean().default(false) }),
  run(ctx: SetupContext, i): { reports: InstallReport[]; skipped: string[]; elsewhere: string[] } {
    const all = i.agents.length === 0;
    const agents: readonly Agent[] = all ? AGENTS : i.agents;
    if (i.scope === 'project') refuseProjectAtHome(ctx.userHome, ctx.cwd);
    const both: Scope[] = projectIsHome(ctx.userHome, ctx.cwd) ? ['user'] : ['user', 'project'];
    const scopes: Scope[] = i.scope ? [i.scope] : all ? both : ['user'];
    const state = stateOf(ctx);
    const skipped: string[] = [];
    const reports = scopes.flatMap((scope) =>
      agents.flatMap((agent) => {
        let plan: Plan;
        try {
          plan = planUninstall(targetFor(agent, scope, ctx.userHome, ctx.cwd), state);
        } catch (err) {
          // Sweeping every agent: a settings file we cannot read is reported, not fatal.
          if (!all || !(err instanceof HomunculusError)) throw err;
          skipped.push(err.message);
          return [];
        }
        return [report(plan, i.dryRun, i.dryRun ? [] : applyPlan(plan, 'uninstall', state))];
      }),
    );
    // Other projects' installs this run could not reach (the user's own files sit in dot folders of the home).
    const reached = new Set(reports.flatMap((r) => r.files.map((f) => f.file)));
    const userFile = (f: string): boolean => f.startsWith(join(ctx.userHome, '.'));
    const elsewhere = state.files().filter((f) => !reached.has(f) && !userFile(f) && existsSync(f));
    return { reports, skipped, elsewhere };
  },
});

export const doctor = defineOperation({
  name: 'setup.doctor',
  summary: 'Diagnose the installation: Node, home directory, config, database, search index, hooks, observations',
  input: z.object({}),
  async run(ctx: SetupContext): Promise<{ ok: boolean; checks: CheckResult[] }> {
    const checks = await runDoctor(homePaths(ctx.home), ctx);
    return { ok: !checks.some((c) => c.status === 'fail'), checks };
  },
});

/** `init --claude | --project | --codex | --gemini | --cursor` and `uninstall`: wiring agents to Homunculus. */
import type { Command } from 'commander';
import { homedir } from 'node:os';
import { HomunculusError } from '../../core/errors.js';
import type { Agent } from '../../capture/agents.js';
import { applyPlan } from '../../capture/install/apply.js';
import { defaultCommandPrefix } from '../../capture/install/command.js';
import { type FileChange, type Plan, planInstall, planUninstall } from '../../capture/install/plan.js';
import { type Scope, targetFor } from '../../capture/install/targets.js';
import type { GlobalOptions } from '../output.js';
import { emit } from '../output.js';
import { globals } from '../context.js';

export interface AgentFlags {
  claude?: boolean;
  project?: boolean;
  codex?: boolean;
  gemini?: boolean;
  cursor?: boolean;
  dryRun?: boolean;
  command?: string;
  mcp?: boolean;
}

export const AGENT_FLAG_HELP: readonly [string, string][] = [
  ['--claude', 'Claude Code, user scope (~/.claude/settings.json, MCP in ~/.claude.json)'],
  ['--project', 'this project only (.claude/settings.json and .mcp.json; with --codex/--gemini/--cursor, their project files)'],
  ['--codex', 'Codex CLI (~/.codex/hooks.json and config.toml)'],
  ['--gemini', 'Gemini CLI (~/.gemini/settings.json)'],
  ['--cursor', 'Cursor (~/.cursor/hooks.json and mcp.json)'],
  ['--dry-run', 'show the changes as a diff and write nothing'],
];

/** The agents and scope the flags name; none named means none (plain `init`). */
export function selectedTargets(o: AgentFlags): { agents: Agent[]; scope: Scope } {
  const agents: Agent[] = [];
  if (o.claude) agents.push('claude-code');
  if (o.codex) agents.push('codex');
  if (o.gemini) agents.push('gemini');
  if (o.cursor) agents.push('cursor');
  if (agents.length === 0 && o.project) agents.push('claude-code');
  return { agents, scope: o.project ? 'project' : 'user' };
}

interface Report {
  agent: Agent;
  scope: Scope;
  dry_run: boolean;
  files: { file: string; action: FileChange['action']; diff?: string }[];
  warnings: string[];
  notes: string[];
}

function report(plan: Plan, dryRun: boolean, written: FileChange[]): Report {
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

const VERB: Record<FileChange['action'], string> = {
  create: 'created',
  update: 'updated',
  unchanged: 'unchanged',
  remove: 'removed',
  restore: 'restored to its original',
};

export function humanReport(reports: readonly Report[], kind: 'install' | 'uninstall'): string[] {
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(`${r.agent} (${r.scope}):${r.dry_run ? ' dry run, nothing written' : ''}`);
    for (const f of r.files) {
      lines.push(`  ${r.dry_run ? (f.action === 'unchanged' ? 'unchanged' : `would be ${VERB[f.action]}`) : VERB[f.action]}: ${f.file}`);
      if (f.diff) lines.push(...f.diff.split('\n').map((l) => `    ${l}`));
    }
    lines.push(...r.warnings.map((w) => `  ! ${w}`));
    if (kind === 'install') lines.push(...r.notes.map((n) => `  note: ${n}`));
  }
  return lines;
}

function userHome(): string {
  return process.env.HOME ?? homedir();
}

/** Installs hooks and the MCP server for the selected agents; returns one report per agent. */
export function runInstall(o: AgentFlags, cwd = process.cwd()): Report[] {
  const { agents, scope } = selectedTargets(o);
  const prefix = o.command ?? defaultCommandPrefix();
  const plans = agents.map((a) => planInstall(targetFor(a, scope, userHome(), cwd), prefix, { mcp: o.mcp }));
  return plans.map((p) => report(p, !!o.dryRun, o.dryRun ? [] : applyPlan(p, 'install')));
}

export function registerInstallCommands(program: Command): void {
  const uninstall = program
    .command('uninstall')
    .description('Remove exactly the hooks and MCP server init added (every agent and scope when no flag is given)');
  for (const [flag, help] of AGENT_FLAG_HELP) uninstall.option(flag, help);
  uninstall.action((o: AgentFlags, cmd: Command) => {
    const g: GlobalOptions = globals(cmd);
    const chosen = selectedTargets(o);
    const all = chosen.agents.length === 0;
    const agents: Agent[] = all ? ['claude-code', 'codex', 'gemini', 'cursor'] : chosen.agents;
    const scopes: Scope[] = all ? ['user', 'project'] : [chosen.scope];
    const skipped: string[] = [];
    const reports = scopes.flatMap((scope) =>
      agents.flatMap((a) => {
        let plan: Plan;
        try {
          plan = planUninstall(targetFor(a, scope, userHome(), process.cwd()));
        } catch (err) {
          // Sweeping every agent: a settings file we cannot read is reported, not fatal.
          if (!all || !(err instanceof HomunculusError)) throw err;
          skipped.push(err.message);
          return [];
        }
        return [report(plan, !!o.dryRun, o.dryRun ? [] : applyPlan(plan, 'uninstall'))];
      }),
    );
    const touched = reports.filter((r) => r.files.some((f) => f.action !== 'unchanged'));
    emit(g, { reports, skipped }, () => [
      ...(touched.length ? humanReport(touched, 'uninstall') : ['Nothing to remove: no Homunculus hooks or MCP server found.']),
      ...skipped.map((m) => `! skipped: ${m}`),
    ]);
  });
}

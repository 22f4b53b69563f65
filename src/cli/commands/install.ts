/** `init` and `uninstall` flags for the agents, and how their reports read on a terminal. */
import type { Command } from 'commander';
import { homedir } from 'node:os';
import type { Agent } from '../../capture/agents.js';
import type { InstallReport, SetupContext } from '../../app/setup.js';
import { uninstall } from '../../app/setup.js';
import { resolveHome } from '../../core/paths.js';
import { globals } from '../context.js';
import { emit } from '../output.js';
import { cliInput } from '../run.js';

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

/** The agents and scope the flags name; none named means none (plain `init`); --project alone means Claude Code. */
export function selectedAgents(o: AgentFlags): { agents: Agent[]; scope: 'user' | 'project'; dryRun: boolean } {
  const agents: Agent[] = [];
  if (o.claude) agents.push('claude-code');
  if (o.codex) agents.push('codex');
  if (o.gemini) agents.push('gemini');
  if (o.cursor) agents.push('cursor');
  if (agents.length === 0 && o.project) agents.push('claude-code');
  return { agents, scope: o.project ? 'project' : 'user', dryRun: !!o.dryRun };
}

/** The directories setup works in, from the global options and this process. */
export function setupContext(cmd: Command): SetupContext {
  return { home: resolveHome(globals(cmd).home), userHome: process.env.HOME ?? homedir(), cwd: process.cwd(), env: process.env };
}

const VERB: Record<InstallReport['files'][number]['action'], string> = {
  create: 'created',
  update: 'updated',
  unchanged: 'unchanged',
  remove: 'removed',
  restore: 'restored to its original',
};

export function humanReport(reports: readonly InstallReport[], kind: 'install' | 'uninstall'): string[] {
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

export function registerInstallCommands(program: Command): void {
  const command = program.command('uninstall').description(uninstall.summary);
  for (const [flag, help] of AGENT_FLAG_HELP) command.option(flag, help);
  command.action((o: AgentFlags, cmd: Command) => {
    // --project alone is every agent's project files here (for init it means Claude Code's).
    const { agents, dryRun } = selectedAgents({ ...o, project: false });
    const scope = o.project ? 'project' : agents.length ? 'user' : undefined;
    const result = uninstall.run(setupContext(cmd), cliInput(uninstall, { agents, ...(scope ? { scope } : {}), dryRun }));
    const touched = result.reports.filter((r) => r.files.some((f) => f.action !== 'unchanged'));
    emit(globals(cmd), result, () => [
      ...(touched.length ? humanReport(touched, 'uninstall') : ['Nothing to remove: no Homunculus hooks or MCP server found here.']),
      ...result.skipped.map((m) => `! skipped: ${m}`),
      ...(result.elsewhere.length
        ? [`Still installed in other projects (run \`homunculus uninstall --project\` in each): ${result.elsewhere.join(', ')}`]
        : []),
    ]);
  });
}

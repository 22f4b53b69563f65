/** init and doctor. */
import type { Command } from 'commander';
import { doctor, init } from '../../app/setup.js';
import { globals } from '../context.js';
import { emit } from '../output.js';
import { cliInput } from '../run.js';
import { AGENT_FLAG_HELP, type AgentFlags, humanReport, selectedAgents, setupContext } from './install.js';

export function registerSetupCommands(program: Command): void {
  const command = program
    .command('init')
    .description('Create the store and the readable layout (safe to run again); with an agent flag, also install its hooks and MCP server')
    .option('--command <prefix>', 'how hooks run homunculus (default: `homunculus` on PATH, else this node binary and this installation)')
    .option('--no-mcp', 'install the hooks only, not the MCP server');
  for (const [flag, help] of AGENT_FLAG_HELP) command.option(flag, help);
  command.action((o: AgentFlags, cmd: Command) => {
    const input = cliInput(init, { ...selectedAgents(o), command: o.command, mcp: o.mcp !== false });
    const r = init.run(setupContext(cmd), input);
    const agents = input.agents.length > 0;
    emit(globals(cmd), r, () => [
      ...(r.database ? [`Homunculus is ready in ${r.home}`, `  database: ${r.database}`] : []),
      ...humanReport(r.agents, 'install'),
      ...(input.dryRun
        ? []
        : agents
          ? ['  next: start a new agent session; `homunculus doctor` checks the wiring']
          : ['  next: `homunculus init --claude` to capture Claude Code sessions, `homunculus status` to see what has been learned']),
    ]);
  });

  program
    .command('doctor')
    .description(doctor.summary)
    .action(async (_o: unknown, cmd: Command) => {
      const r = await doctor.run(setupContext(cmd), cliInput(doctor, {}));
      emit(globals(cmd), r, () =>
        r.checks.flatMap((c) => [
          `${c.status === 'ok' ? '✓' : c.status === 'warn' ? '!' : '✗'} ${c.name}: ${c.detail}`,
          ...(c.fix && c.status !== 'ok' ? [`    fix: ${c.fix}`] : []),
        ]),
      );
      if (!r.ok) process.exitCode = 1;
    });
}

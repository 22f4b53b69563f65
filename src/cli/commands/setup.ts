/** init and doctor. */
import type { Command } from 'commander';
import { homePaths, resolveHome } from '../../core/paths.js';
import { openStore } from '../../store/store.js';
import { runDoctor } from '../doctor.js';
import { globals } from '../context.js';
import { emit } from '../output.js';
import { AGENT_FLAG_HELP, type AgentFlags, humanReport, runInstall, selectedTargets } from './install.js';

export function registerSetupCommands(program: Command): void {
  const init = program
    .command('init')
    .description('Create the store and the readable layout (safe to run again); with an agent flag, also install its hooks and MCP server')
    .option('--command <prefix>', "how hooks run homunculus (default: this node binary and this installation's bin.js)")
    .option('--no-mcp', 'install the hooks only, not the MCP server');
  for (const [flag, help] of AGENT_FLAG_HELP) init.option(flag, help);
  init.action(async (o: AgentFlags, cmd: Command) => {
    const { renderAll } = await import('../../view/render.js');
    const g = globals(cmd);
    const install = selectedTargets(o).agents.length > 0;
    if (install && o.dryRun) {
      const reports = runInstall(o);
      emit(g, { home: resolveHome(g.home), agents: reports }, (r) => humanReport(r.agents, 'install'));
      return;
    }
    const store = openStore({ home: g.home });
    try {
      renderAll(store);
      const reports = install ? runInstall(o) : [];
      emit(g, { home: store.paths.home, database: store.paths.db, agents: reports }, (r) => [
        `Homunculus is ready in ${r.home}`,
        `  database: ${r.database}`,
        ...humanReport(r.agents, 'install'),
        install
          ? '  next: start a new agent session; `homunculus doctor` checks the wiring'
          : '  next: `homunculus init --claude` to capture Claude Code sessions, `homunculus status` to see what has been learned',
      ]);
    } finally {
      store.close();
    }
  });

  program
    .command('doctor')
    .description('Diagnose the installation: Node, home directory, config, database health, search index')
    .action(async (_o: unknown, cmd: Command) => {
      const g = globals(cmd);
      const results = await runDoctor(homePaths(resolveHome(g.home)));
      const failed = results.some((r) => r.status === 'fail');
      emit(g, { ok: !failed, checks: results }, (r) =>
        r.checks.flatMap((c) => [
          `${c.status === 'ok' ? '✓' : c.status === 'warn' ? '!' : '✗'} ${c.name}: ${c.detail}`,
          ...(c.fix && c.status !== 'ok' ? [`    fix: ${c.fix}`] : []),
        ]),
      );
      if (failed) process.exitCode = 1;
    });
}

/** init and doctor. */
import type { Command } from 'commander';
import { homePaths, resolveHome } from '../../core/paths.js';
import { openStore } from '../../store/store.js';
import { runDoctor } from '../doctor.js';
import { globals } from '../context.js';
import { emit } from '../output.js';

export function registerSetupCommands(program: Command): void {
  program
    .command('init')
    .description('Create the store and the readable layout under the home directory (safe to run again)')
    .action(async (_o: unknown, cmd: Command) => {
      const { renderAll } = await import('../../view/render.js');
      const g = globals(cmd);
      const store = openStore({ home: g.home });
      try {
        renderAll(store);
        emit(g, { home: store.paths.home, database: store.paths.db }, (r) => [
          `Homunculus is ready in ${r.home}`,
          `  database: ${r.database}`,
          '  next: `homunculus status` to see what has been learned',
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

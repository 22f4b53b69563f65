/** `homunculus dashboard` in the command list: the server is its own process (dashboard/main.ts), routed by bin.ts. */
import type { Command } from 'commander';

export function registerDashboardCommands(program: Command): void {
  program
    .command('dashboard')
    .description('Serve the web dashboard on 127.0.0.1: what was learned, and correcting it (Ctrl-C stops it)')
    .option('--port <n>', 'port on 127.0.0.1; 0 picks a free one (default: 7422)')
    .option('--host <address>', 'only 127.0.0.1 is served; any other address is refused')
    .option('--no-open', 'print the login link without opening a browser');
}

/** The `homunculus` command line: global options, commands, and one error policy. */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { registerCaptureCommands } from './commands/capture.js';
import { registerInstallCommands } from './commands/install.js';
import { registerGraphCommands } from './commands/graph.js';
import { registerInstinctCommands } from './commands/instincts.js';
import { registerLearningCommands } from './commands/learning.js';
import { registerLifecycleCommands } from './commands/lifecycle.js';
import { registerMcpCommands } from './commands/mcp.js';
import { registerRuleCommands } from './commands/rules.js';
import { registerSearchCommands } from './commands/search.js';
import { registerSetupCommands } from './commands/setup.js';
import { registerSyncCommands } from './commands/sync.js';
import { registerTransferCommands } from './commands/transfer.js';
import { reportError } from './output.js';

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return '0.0.0';
  }
}

export function buildProgram(): Command {
  const program = new Command('homunculus')
    .description('Local-first memory that learns from how you work with AI coding agents')
    .version(version(), '-V, --version')
    .option('--home <dir>', 'data directory (default: $HOMUNCULUS_HOME or ~/.homunculus)')
    .option('--json', 'print machine-readable JSON')
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ sortSubcommands: true })
    .enablePositionalOptions(false);
  registerSetupCommands(program);
  registerInstinctCommands(program);
  registerLifecycleCommands(program);
  registerTransferCommands(program);
  registerCaptureCommands(program);
  registerInstallCommands(program);
  registerMcpCommands(program, version());
  registerRuleCommands(program);
  registerSyncCommands(program);
  registerLearningCommands(program);
  registerGraphCommands(program);
  registerSearchCommands(program);
  program.addHelpText(
    'after',
    '\nEnvironment:\n  HOMUNCULUS_HOME   data directory\n  HOMUNCULUS_NOW    freeze the clock at an ISO-8601 instant (for testing decay and promotion)\n',
  );
  const exit = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.commands.forEach(exit);
  };
  exit(program);
  return program;
}

export async function run(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  const json = argv.includes('--json');
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      // Commander already printed the message; usage errors exit 2.
      return 2;
    }
    return reportError(err, json);
  }
}

/** The `homunculus` command line: global options, commands, and one error policy. */
import { Command, CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { commandName } from './argv.js';
import { reportError } from './output.js';

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return '0.0.0';
  }
}

type Register = (program: Command) => void;

/**
 * Every command module and the top-level commands it registers. A run loads only the module
 * of the command it names (start-up stays near bare Node); help and unknown commands load all.
 * cli/program.test.ts checks this table against what the modules register.
 */
export const COMMAND_MODULES: readonly { commands: readonly string[]; load: () => Promise<Register> }[] = [
  { commands: ['init', 'doctor'], load: async () => (await import('./commands/setup.js')).registerSetupCommands },
  {
    commands: ['observe', 'list', 'get', 'search', 'feedback', 'alias', 'stats', 'consolidate'],
    load: async () => (await import('./commands/instincts.js')).registerInstinctCommands,
  },
  { commands: ['status', 'evolve'], load: async () => (await import('./commands/lifecycle.js')).registerLifecycleCommands },
  { commands: ['import-files', 'export', 'import'], load: async () => (await import('./commands/transfer.js')).registerTransferCommands },
  { commands: ['hook', 'import-transcripts'], load: async () => (await import('./commands/capture.js')).registerCaptureCommands },
  { commands: ['uninstall'], load: async () => (await import('./commands/install.js')).registerInstallCommands },
  {
    commands: ['mcp'],
    load: async () => {
      const { registerMcpCommands } = await import('./commands/mcp.js');
      return (p) => registerMcpCommands(p, version());
    },
  },
  { commands: ['export-rules'], load: async () => (await import('./commands/rules.js')).registerRuleCommands },
  { commands: ['sync'], load: async () => (await import('./commands/sync.js')).registerSyncCommands },
  {
    commands: ['learn', 'episodes', 'chains', 'duplicates', 'gc', 'housekeep', 'trending', 'history', 'effectiveness', 'tool-usage'],
    load: async () => (await import('./commands/learning.js')).registerLearningCommands,
  },
  { commands: ['graph', 'context'], load: async () => (await import('./commands/graph.js')).registerGraphCommands },
  { commands: ['memory', 'query', 'embed'], load: async () => (await import('./commands/search.js')).registerSearchCommands },
];

export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('homunculus')
    .description('Local-first memory that learns from how you work with AI coding agents')
    .version(version(), '-V, --version')
    .option('--home <dir>', 'data directory (default: $HOMUNCULUS_HOME or ~/.homunculus)')
    .option('--json', 'print machine-readable JSON')
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ sortSubcommands: true })
    .enablePositionalOptions(false);
  const name = commandName(argv);
  const wanted = COMMAND_MODULES.filter((m) => name !== undefined && m.commands.includes(name));
  for (const module of wanted.length ? wanted : COMMAND_MODULES) (await module.load())(program);
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
  const program = await buildProgram(argv);
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

/** The `homunculus` command line: global options, commands, and one error policy. */
import { Command, CommanderError } from 'commander';
import { UsageError } from '../core/errors.js';
import { closestWords } from '../core/text.js';
import { optionValue } from '../core/flags.js';
import { packageVersion as version } from '../core/package.js';
import { reportError } from '../core/report.js';
import { commandIndex, commandName } from './argv.js';
import { emit } from './output.js';

type Register = (program: Command) => void;

/**
 * Every command module and the top-level commands it registers. A run loads only the module
 * of the command it names (start-up stays near bare Node); help and unknown commands load all.
 * cli/program.test.ts checks this table against what the modules register.
 */
export const COMMAND_MODULES: readonly { commands: readonly string[]; load: () => Promise<Register> }[] = [
  { commands: ['init', 'doctor'], load: async () => (await import('./commands/setup.js')).registerSetupCommands },
  {
    commands: ['observe', 'list', 'get', 'search', 'feedback', 'edit', 'alias', 'forget', 'stats', 'consolidate'],
    load: async () => (await import('./commands/instincts.js')).registerInstinctCommands,
  },
  {
    commands: ['status', 'evolve', 'promote', 'unpromote'],
    load: async () => (await import('./commands/lifecycle.js')).registerLifecycleCommands,
  },
  { commands: ['import-files', 'export', 'import'], load: async () => (await import('./commands/transfer.js')).registerTransferCommands },
  { commands: ['hook', 'import-transcripts'], load: async () => (await import('./commands/capture.js')).registerCaptureCommands },
  { commands: ['uninstall'], load: async () => (await import('./commands/install.js')).registerInstallCommands },
  { commands: ['mcp'], load: async () => (await import('./commands/mcp.js')).registerMcpCommands },
  { commands: ['export-rules'], load: async () => (await import('./commands/rules.js')).registerRuleCommands },
  { commands: ['sync'], load: async () => (await import('./commands/sync.js')).registerSyncCommands },
  { commands: ['dashboard'], load: async () => (await import('./commands/dashboard.js')).registerDashboardCommands },
  { commands: ['health', 'changes', 'telemetry'], load: async () => (await import('./commands/health.js')).registerHealthCommands },
  {
    commands: ['learn', 'episodes', 'chains', 'duplicates', 'gc', 'housekeep', 'trending', 'history', 'effectiveness', 'tool-usage'],
    load: async () => (await import('./commands/learning.js')).registerLearningCommands,
  },
  { commands: ['graph', 'context'], load: async () => (await import('./commands/graph.js')).registerGraphCommands },
  {
    commands: ['memory', 'query', 'embed', 'serve-query', 'ask'],
    load: async () => (await import('./commands/search.js')).registerSearchCommands,
  },
  { commands: ['agent'], load: async () => (await import('./commands/agent.js')).registerAgentCommands },
  { commands: ['mind'], load: async () => (await import('./commands/mind.js')).registerMindCommands },
];

/** The root help's groups, in order; a group lists its commands in this order too. */
const HELP_GROUPS: readonly (readonly [string, readonly string[]])[] = [
  ['Start here:', ['sync', 'init', 'status', 'query', 'dashboard', 'doctor']],
  [
    'Instincts:',
    ['list', 'get', 'search', 'observe', 'feedback', 'edit', 'alias', 'forget', 'evolve', 'promote', 'unpromote', 'consolidate', 'stats'],
  ],
  ['Learning:', ['learn', 'episodes', 'trending', 'history', 'effectiveness', 'chains', 'duplicates', 'gc', 'tool-usage']],
  ['Memory and knowledge graph:', ['memory', 'ask', 'embed', 'serve-query', 'graph', 'context', 'health', 'changes', 'telemetry']],
  ['Agents and sharing:', ['import-transcripts', 'hook', 'mcp', 'uninstall', 'export-rules', 'export', 'import', 'import-files']],
  ['Personal agent:', ['agent', 'mind']],
];

/** Puts every command in its help group, in the groups' order. */
function groupCommands(program: Command): void {
  const order = HELP_GROUPS.flatMap(([, names]) => names);
  for (const [heading, names] of HELP_GROUPS) for (const c of program.commands) if (names.includes(c.name())) c.helpGroup(heading);
  const rank = (c: Command): number => (order.includes(c.name()) ? order.indexOf(c.name()) : order.length);
  (program.commands as Command[]).sort((a, b) => rank(a) - rank(b));
}

/** A usage error as the one JSON document --json prints (the text goes to stderr). */
function writeUsageJson(error: string, hint: string | null = null): void {
  process.stdout.write(`${JSON.stringify({ error, code: 'usage', hint })}\n`);
}

/** The group a command line names without its subcommand (`graph`, `agent schedule`): said as a usage error under --json. */
function missingSubcommand(program: Command, argv: readonly string[]): void {
  const path: Command[] = [];
  for (const word of argv.slice(commandIndex(argv)).filter((w) => !w.startsWith('-'))) {
    const next = (path.at(-1) ?? program).commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    path.push(next);
  }
  const group = path.at(-1);
  if (!group) return;
  const name = `homunculus ${path.map((c) => c.name()).join(' ')}`;
  const subcommands = group.commands.map((c) => c.name()).join(', ');
  writeUsageJson(`${name} needs a subcommand: ${subcommands}.`, `Run \`${name} --help\` for what each does.`);
}

export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const json = argv.includes('--json');
  const program = new Command('homunculus')
    .description('Local-first memory that learns from how you work with AI coding agents')
    .version(version(), '-V, --version')
    .option('--home <dir>', 'data directory (default: $HOMUNCULUS_HOME or ~/.homunculus)', (dir: string) =>
      optionValue('--home', dir, 'Give the data directory, e.g. --home ~/.homunculus, or leave --home out for the default.'),
    )
    .option('--json', 'print machine-readable JSON')
    .showHelpAfterError('(add --help for usage)')
    // Every command's --help lists --json and --home, which the program takes for all of them.
    .configureHelp({ showGlobalOptions: true })
    .enablePositionalOptions(false)
    .configureOutput({
      // Under --json a usage error is one JSON document on stdout too (the text still goes to stderr).
      outputError: (text, write) => {
        write(text);
        if (json)
          writeUsageJson(
            text
              .replace(/^error: /, '')
              .trim()
              .split('\n')[0] ?? '',
          );
      },
    });
  const name = commandName(argv);
  const wanted = COMMAND_MODULES.filter((m) => name !== undefined && m.commands.includes(name));
  for (const module of wanted.length ? wanted : COMMAND_MODULES) (await module.load())(program);
  groupCommands(program);
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

/** A command that does not exist, even with --help: named, with exit code 2. */
function unknownCommand(name: string | undefined): UsageError | undefined {
  if (name === undefined || name === 'help' || COMMAND_MODULES.some((m) => m.commands.includes(name))) return undefined;
  const known = COMMAND_MODULES.flatMap((m) => m.commands);
  const close = closestWords(name, known).slice(0, 2);
  return new UsageError(
    `Unknown command ${JSON.stringify(name)}.`,
    `${close.length ? `Did you mean ${close.map((c) => `\`homunculus ${c}\``).join(' or ')}? ` : ''}Run \`homunculus --help\` for the commands.`,
  );
}

export async function run(argv: readonly string[]): Promise<number> {
  // The version alone needs none of the commands loaded (all of them load for a bare --help).
  const args = argv.slice(2);
  const json = argv.includes('--json');
  const bare = args.filter((a) => a !== '--json');
  if (bare.length === 1 && (bare[0] === '--version' || bare[0] === '-V')) {
    emit({ json }, { version: version() }, (v) => v.version);
    return 0;
  }
  const unknown = unknownCommand(commandName(argv));
  if (unknown) return reportError(unknown, json);
  const program = await buildProgram(argv);
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      // A group named without its subcommand (`homunculus graph`) shows its help as an error: a usage error.
      if (err.code === 'commander.help' && err.exitCode !== 0) {
        if (json) missingSubcommand(program, argv);
        return 2;
      }
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return 0;
      // Commander already printed the message; usage errors exit 2.
      return 2;
    }
    return reportError(err, json);
  }
}

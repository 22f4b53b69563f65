/**
 * Shell command lines: split into simple commands, reduced to a base command ("git commit",
 * "go test"), and told apart from noise (commands that only look around). Pure functions.
 */
import { type SimpleCommand, shellWords, splitShell, statusPipelines } from '../../core/shell.js';
import { escapeRegExp } from '../../core/text.js';

/** Commands that only look around: recorded only when they fail. */
// prettier-ignore
const NOISE_COMMANDS = new Set([
  'cat', 'ls', 'll', 'la', 'pwd', 'echo', 'printf', 'head', 'tail', 'wc', 'which', 'type', 'whoami', 'date', 'clear',
  'cd', 'true', 'tree', 'file', 'stat', 'less', 'more', 'sleep', 'env', 'printenv', 'basename', 'dirname', 'realpath', 'history',
]);
/** git subcommands that only read state. */
const NOISE_GIT = new Set([
  'status',
  'diff',
  'log',
  'show',
  'rev-parse',
  'ls-files',
  'describe',
  'blame',
  'shortlog',
  'reflog',
  'whatchanged',
]);
/** Wrappers whose first argument is the real command. */
const WRAPPERS = new Set(['sudo', 'time', 'nice', 'nohup', 'command', 'exec', 'builtin', 'doas']);
/** Programs whose subcommand is part of the base command: `git commit`, `go test`, `npm run`. */
// prettier-ignore
const MULTIPLEXERS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'go', 'cargo', 'docker', 'kubectl', 'gh', 'mise', 'make', 'uv', 'poetry', 'pip',
  'pip3', 'brew', 'terraform', 'dotnet', 'mvn', 'gradle', 'bundle', 'rails', 'rake', 'deno', 'helm', 'apt', 'apt-get', 'systemctl',
  'aws', 'gcloud', 'az', 'just', 'task', 'nx', 'turbo', 'composer', 'mix', 'swift', 'flutter', 'dart', 'rustup', 'conda',
]);

/** The simple commands of a command line, as typed. */
const simpleCommands = (commandLine: string): string[] => splitShell(commandLine).map((s) => s.text);

/** The program and, for multiplexers, subcommand of one simple command: "git commit", "go test", "pytest". */
function baseOf(simple: string): string {
  const w = shellWords(simple.replace(/^[({\s]+/, ''));
  let i = 0;
  // Skip VAR=value prefixes and wrappers (sudo, time, env X=1, timeout 10).
  for (;;) {
    const word = w[i];
    if (word === undefined) return '';
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) i++;
    else if (WRAPPERS.has(word)) i++;
    else if (word === 'env' && w[i + 1] !== undefined && /=|^-/.test(w[i + 1] ?? '')) i++;
    else if (word === 'timeout' && /^\d/.test(w[i + 1] ?? '')) i += 2;
    else if (word.startsWith('-') && i > 0) i++;
    else break;
  }
  const program = (w[i] ?? '').split('/').pop() ?? '';
  if (!MULTIPLEXERS.has(program)) return program;
  // The subcommand is the first non-flag word; flags with values (git -C dir) are skipped.
  for (let j = i + 1; j < w.length; j++) {
    const word = w[j] ?? '';
    if (word.startsWith('-')) {
      if (['-C', '-c', '--prefix', '--cwd', '--dir', '-f', '--file', '--project', '--manifest-path'].includes(word)) j++;
      continue;
    }
    if (/^[A-Za-z][\w:.-]*$/.test(word)) return `${program} ${word}`;
    break;
  }
  return program;
}

/** Shell grammar and set-up steps: they say nothing about what a command line does. */
const SETUP = new Set([
  'cd',
  'export',
  'set',
  'unset',
  'source',
  '.',
  'pushd',
  'popd',
  'for',
  'while',
  'until',
  'if',
  'fi',
  'done',
  'esac',
  'case',
  'local',
  'declare',
  'shopt',
  'trap',
]);

/** One simple command without leading shell keywords (`do go test` -> `go test`); '' for a comment. */
function stripGrammar(simple: string): string {
  if (simple.startsWith('#')) return '';
  return simple.replace(/^(?:(?:do|then|else|elif|\{|\(|!)\s+)+/, '').trim();
}

/** The base command of a whole command line: the first simple command that is not set-up or grammar. */
export function baseCommand(command: string): string {
  const parts = simpleCommands(command).map(stripGrammar).filter(Boolean);
  for (const part of parts) {
    const base = baseOf(part);
    if (base && !SETUP.has(base)) return base;
  }
  return parts.length ? baseOf(parts[0] as string) : '';
}

/** Commands that only trim or show what is piped into them: they pass whatever came before. */
const OUTPUT_FILTERS = new Set(['tail', 'head', 'less', 'more', 'cat', 'tee', 'sort', 'uniq', 'wc', 'column']);

/** The command of a pipeline that failed: the last, unless it only trims the output (`go test | tail`: the test). */
function failingOf(pipeline: readonly SimpleCommand[]): string {
  const last = baseOf(stripGrammar(pipeline[pipeline.length - 1]?.text ?? ''));
  return OUTPUT_FILTERS.has(last) && pipeline.length > 1 ? baseOf(stripGrammar(pipeline[0]?.text ?? '')) : last;
}

/** The base commands the line's exit status speaks for, last first: of a passing `a && b`, both passed. */
export const statusCommands = (command: string): string[] => statusPipelines(splitShell(command)).map(failingOf).filter(Boolean);

/** The error names its program: `stat: x: No such file`, `(eval):cd:1: no such file`, `command not found: uvx`. */
function namedBy(error: string, base: string): boolean {
  const program = escapeRegExp(base.split(' ')[0] ?? '');
  return new RegExp(
    `(?:^|\\n)\\s*(?:\\(eval\\):)?${program}:|(?:not found|no such file or directory): \\S*\\b${program}(?:\\s|$)`,
    'i',
  ).test(error);
}

/**
 * The base command of a failed command line: the one that failed (`git add f && git rebase
 * --continue` failing is git rebase's failure, not git add's). Of the commands that can have
 * failed (see statusPipelines), the one its error names, else the last that is not set-up.
 * When an `&&` chain's error names none, which step failed is not known: the last is a guess,
 * kept because each step ran only if those before it passed and agents put the step they
 * check last (cd, a build, `git add` first); in real sessions it was the failing one in most
 * such chains, and making no fact would lose every merge or rebase conflict.
 */
export function failedCommand(command: string, error: string): string {
  const bases = statusCommands(command);
  return bases.find((b) => namedBy(error, b)) ?? bases.find((b) => !SETUP.has(b)) ?? baseCommand(command);
}

/** `echo x > file` writes a file: a redirect to anything but /dev/null makes a command count. */
function writesFile(simple: string): boolean {
  const unquoted = simple.replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, '""');
  return /(?:^|[^0-9&>])>>?\s*(?!&|\/dev\/null)[^\s>]/.test(unquoted);
}

function isNoiseSimple(simple: string): boolean {
  const base = baseOf(simple);
  if (!base) return true;
  if (writesFile(simple)) return false;
  if (NOISE_COMMANDS.has(base)) return true;
  if (base.startsWith('git ')) {
    const sub = base.slice(4);
    if (NOISE_GIT.has(sub)) return true;
    // `git branch`, `git remote -v`, `git tag` with no target only list.
    const args = shellWords(simple).filter((x) => !x.startsWith('-'));
    if ((sub === 'branch' || sub === 'remote' || sub === 'tag') && args.length <= 2) return true;
  }
  return false;
}

/** A successful command line made only of looking-around commands (cat, ls, git status ...). */
export function isNoiseCommand(command: string): boolean {
  const parts = simpleCommands(command).map(stripGrammar).filter(Boolean);
  return parts.length > 0 && parts.every(isNoiseSimple);
}

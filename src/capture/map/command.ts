/**
 * Shell command lines: split into simple commands, reduced to a base command ("git commit",
 * "go test"), and told apart from noise (commands that only look around). Pure functions.
 */
import { shellWords, splitShell } from '../../core/shell.js';

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

/**
 * Shell commands as the miners see them: compound lines split into segments, each reduced
 * to a signature ("mise run lint", "go test", "./scripts/check.sh"), and classified
 * (noise, git flow, ecosystem default, project-specific). Pure functions, no I/O.
 */
import { basename } from 'node:path';
import { type SimpleCommand, shellWords, splitShell } from '../../core/shell.js';

/** Programs that take a subcommand worth keeping in the signature. */
// prettier-ignore
const SUBCOMMAND_PROGRAMS = new Set([
  'git', 'go', 'npm', 'pnpm', 'yarn', 'bun', 'cargo', 'gh', 'docker', 'kubectl', 'mise', 'uv', 'poetry', 'deno', 'dotnet',
  'make', 'just', 'task', 'rake', 'npx', 'bundle', 'mvn', 'gradle', './gradlew', 'pip', 'pip3', 'brew', 'helm', 'terraform',
  'composer', 'mix', 'swift', 'flutter', 'dart', 'nx', 'turbo', 'lerna', 'rails', 'php', 'artisan', 'pnpx', 'hatch', 'tox', 'nox',
  'ruff', 'bunx',
]);

/** Runners whose next word names a task defined by the project itself. */
const TASK_RUNNERS: Readonly<Record<string, readonly string[]>> = {
  mise: ['run', 'r'],
  npm: ['run', 'run-script'],
  pnpm: ['run'],
  yarn: ['run'],
  bun: ['run'],
  uv: ['run'],
  poetry: ['run'],
  deno: ['task'],
  composer: ['run', 'run-script'],
};
/** Runners where the first word already is the project's task. */
const DIRECT_TASK_RUNNERS = new Set(['make', 'just', 'task', 'rake', 'nx', 'turbo', 'tox', 'nox']);
/** Launchers of a package's tool (`npx vitest`): the tool tells the purpose, and it is no project task. */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx']);

/** Commands that only look around or print: never part of a learned pattern. */
// prettier-ignore
const NOISE_PROGRAMS = new Set([
  'cat', 'ls', 'echo', 'printf', 'pwd', 'cd', 'head', 'tail', 'grep', 'egrep', 'rg', 'ag', 'find', 'fd', 'wc', 'sed', 'awk',
  'which', 'type', 'sleep', 'mkdir', 'rm', 'rmdir', 'cp', 'mv', 'touch', 'chmod', 'chown', 'jq', 'yq', 'sort', 'uniq', 'tree',
  'stat', 'true', 'false', 'export', 'source', '.', 'date', 'env', 'open', 'diff', 'less', 'more', 'file', 'du', 'df', 'ps',
  'kill', 'pkill', 'xargs', 'tee', 'cut', 'tr', 'basename', 'dirname', 'realpath', 'readlink', 'test', '[', 'set', 'unset',
  'for', 'do', 'done', 'if', 'then', 'fi', 'while', 'time', 'history', 'clear', 'exit', 'read', 'code', 'pgrep', 'lsof',
  'column', 'nl', 'od', 'xxd', 'hexdump', 'base64', 'shasum', 'sha256sum', 'md5', 'md5sum', 'tar', 'unzip', 'zip', 'curl', 'wget',
  'python', 'python3', 'node', 'bash', 'sh', 'zsh', 'gzip', 'gunzip', 'whoami', 'id', 'uname', 'hostname', 'printenv', 'comm',
]);

/** git and gh subcommands that make up the standard flow: never an instinct on their own. */
// prettier-ignore
const GIT_FLOW = new Set([
  'add', 'commit', 'push', 'pull', 'fetch', 'checkout', 'switch', 'merge', 'rebase', 'stash', 'status', 'diff', 'log', 'show',
  'branch', 'rev-parse', 'reset', 'restore', 'tag', 'remote', 'clone', 'init', 'blame', 'cherry-pick', 'worktree', 'config',
  'ls-files', 'ls-tree', 'cat-file', 'merge-base', 'reflog', 'describe', 'shortlog', 'rm', 'mv', 'grep', 'clean', 'gc',
  'count-objects', 'read-tree', 'symbolic-ref', 'for-each-ref', 'name-rev', 'rev-list', 'apply', 'am', 'format-patch', 'bisect',
  'pr', 'api', 'issue', 'repo', 'run', 'release', 'auth', 'browse', 'workflow',
]);

/** The ecosystem's stock commands: "run the tests / the linter / the build" is generic validation. */
// prettier-ignore
const ECOSYSTEM_DEFAULTS = new Set([
  'go test', 'go build', 'go vet', 'go run', 'go mod', 'go mod tidy', 'go mod download', 'go fmt', 'go doc', 'go tool', 'go generate', 'go install', 'go get', 'go env',
  'go version', 'gofmt', 'goimports', 'golangci-lint', 'npm test', 'npm install', 'npm ci', 'npm i', 'pnpm install', 'pnpm i',
  'pnpm test', 'yarn install', 'yarn test', 'bun test', 'bun install', 'cargo test', 'cargo build', 'cargo check', 'cargo clippy',
  'cargo fmt', 'cargo run', 'pytest', 'tsc', 'eslint', 'prettier', 'vitest', 'jest', 'mypy', 'ruff', 'black', 'flake8', 'pip install',
  'pip3 install', 'npx tsc', 'npx eslint', 'npx prettier', 'npx vitest', 'npx jest', 'dotnet test', 'dotnet build', 'mvn test',
  'mvn package', 'gradle test', 'gradle build', 'swift test', 'swift build', 'rspec', 'bundle install', 'bundle exec',
]);

export type Purpose = 'test' | 'lint' | 'format' | 'build' | 'typecheck' | 'check' | 'generate' | 'release' | 'setup' | 'run';

const PURPOSE_WORDS: readonly [RegExp, Purpose][] = [
  [/\b(test|tests|spec|e2e|integration|unit|pytest|vitest|jest|mocha|tox|nox)\b/, 'test'],
  // Before lint: `ruff format` formats, `ruff check` lints.
  [/\b(fmt|format|prettier|gofmt|black|isort)\b/, 'format'],
  [/\b(lint|vet|clippy|eslint|golangci|ruff|flake8|pylint|biome)\b/, 'lint'],
  [/\b(typecheck|types|tsc|mypy|pyright)\b/, 'typecheck'],
  [/\b(build|compile|bundle)\b/, 'build'],
  [/\b(check|ci|verify|validate)\b/, 'check'],
  [/\b(gen|generate|codegen|proto)\b/, 'generate'],
  [/\b(release|publish|deploy)\b/, 'release'],
  [/\b(setup|install|bootstrap|init)\b/, 'setup'],
  [/\b(dev|start|serve|run)\b/, 'run'],
];

interface CommandSegment extends SimpleCommand {
  signature: string;
  program: string;
}

/** The simple commands of a line, each with its signature (see splitShell for the grammar). */
export function splitCommand(command: string): CommandSegment[] {
  return splitShell(command).map((s) => ({ ...s, ...commandSignature(s.text) }));
}

const isAssignment = (word: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
const isFlag = (word: string): boolean => word.startsWith('-');
const isRedirect = (word: string): boolean => /^\d?>|^<|^&>|^\d>&\d$/.test(word);
const looksLikeValue = (word: string): boolean => /[/\\]|\.\w+$|^\.|^\$|^["'`]|^\d|[*?{}[\]<>@=]/.test(word) || word.length > 40;

const words = (segment: string): string[] => shellWords(segment).filter((w) => !isRedirect(w));

/** The stable part of one segment: program, subcommand and task name, without flags or values. */
export function commandSignature(segment: string): { signature: string; program: string } {
  const all = words(segment);
  let i = 0;
  while (
    i < all.length &&
    (isAssignment(all[i] as string) || ['sudo', 'env', 'time', 'nohup', 'command', 'exec'].includes(all[i] as string))
  )
    i++;
  const first = all[i];
  if (!first) return { signature: '', program: '' };
  const isScript = /^(\.{0,2}\/|~\/)|\.(sh|py|rb|js|ts|mjs|pl)$/.test(first) || first.includes('/');
  const program = isScript ? first.replace(/^\.\//, './') : basename(first);
  const rest = all.slice(i + 1).filter((w) => !isFlag(w));
  if (isScript) {
    const sub = rest[0] && /^[a-z][a-z0-9:_-]*$/.test(rest[0]) ? ` ${rest[0]}` : '';
    return { signature: `${program}${sub}`, program };
  }
  if (program === 'python' || program === 'python3') {
    const m = all.slice(i + 1).indexOf('-m');
    const mod = m >= 0 ? all[i + 2 + m] : undefined;
    return { signature: mod ? `${program} -m ${mod}` : program, program };
  }
  const taskVerbs = TASK_RUNNERS[program];
  const parts = [program];
  if (SUBCOMMAND_PROGRAMS.has(program) || DIRECT_TASK_RUNNERS.has(program)) {
    const sub = rest[0];
    if (sub && !looksLikeValue(sub)) {
      parts.push(sub);
      if (taskVerbs?.includes(sub) && rest[1] && !looksLikeValue(rest[1])) {
        parts.push(rest[1]);
        // A tool with subcommands run through the runner: `uv run ruff format` formats, `uv run ruff check` lints.
        if (SUBCOMMAND_PROGRAMS.has(rest[1]) && rest[2] && !looksLikeValue(rest[2])) parts.push(rest[2]);
      } else if (program === 'gh' && rest[1] && /^[a-z-]+$/.test(rest[1])) parts.push(rest[1]);
      else if (program === 'go' && ['tool', 'mod', 'work'].includes(sub) && rest[1] && !looksLikeValue(rest[1])) parts.push(rest[1]);
    } else if (sub && (program === 'make' || program === 'just') && /^[\w:-]+$/.test(sub)) {
      parts.push(sub);
    }
  }
  return { signature: parts.join(' '), program };
}

export function isNoise(signature: string): boolean {
  const program = signature.split(' ')[0] ?? '';
  return !signature || NOISE_PROGRAMS.has(program) || !PROGRAM_NAME.test(program);
}

/**
 * What a program's name looks like. A multi-line command split into pieces can leave a comment
 * (`#`), a variable (`$line`) or a continued line's flag (`-r`) where a program would be.
 */
const PROGRAM_NAME = /^[\w.~/][\w.+/-]*$/;

/** git/gh plumbing and the standard add/commit/push flow. */
export function isGitFlow(signature: string): boolean {
  const [program, sub] = signature.split(' ');
  if (program !== 'git' && program !== 'gh') return false;
  return sub === undefined || GIT_FLOW.has(sub);
}

export function isEcosystemDefault(signature: string): boolean {
  const [a, b] = signature.split(' ');
  return ECOSYSTEM_DEFAULTS.has(signature) || ECOSYSTEM_DEFAULTS.has(`${a} ${b}`) || ECOSYSTEM_DEFAULTS.has(a ?? '');
}

/** A command that only means something in this repository: a project task or a project script. */
export function isProjectSpecific(signature: string): boolean {
  const [program, sub, task] = signature.split(' ');
  if (!program) return false;
  if (program.includes('/') || /\.(sh|py|rb|js|ts|mjs|pl)$/.test(program)) return true;
  const verbs = TASK_RUNNERS[program];
  if (verbs && sub && verbs.includes(sub) && task) return true;
  if (DIRECT_TASK_RUNNERS.has(program) && sub) return true;
  // "pnpm lint" / "yarn build": package scripts called without "run".
  if (
    (program === 'pnpm' || program === 'yarn' || program === 'bun') &&
    sub &&
    ![
      'install',
      'i',
      'add',
      'remove',
      'test',
      'exec',
      'dlx',
      'x',
      'why',
      'list',
      'ls',
      'outdated',
      'update',
      'up',
      'init',
      'create',
      'publish',
      'link',
    ].includes(sub)
  )
    return true;
  return false;
}

/** The meaningful steps of a command line: signatures that are neither noise nor git flow. */
export function meaningfulSegments(command: string): CommandSegment[] {
  return splitCommand(command).filter((s) => !isNoise(s.signature) && !isGitFlow(s.signature));
}

/** What a command is for, from its task name or program. */
export function purposeOf(signature: string): Purpose | undefined {
  const [program, sub, ...task] = signature.split(' ');
  const verbs = program ? TASK_RUNNERS[program] : undefined;
  // For a task runner only the task name tells the purpose ("mise run dup" is not "run").
  const isScript = !!program && (program.includes('/') || /\.(sh|py|rb|js|ts|mjs|pl)$/.test(program));
  const name =
    verbs && sub && verbs.includes(sub)
      ? task.join(' ')
      : program && (DIRECT_TASK_RUNNERS.has(program) || LAUNCHERS.has(program))
        ? (sub ?? program)
        : isScript
          ? (sub ?? basename(program).replace(/\.\w+$/, ''))
          : signature;
  const text = name.toLowerCase().replace(/[:_./-]/g, ' ');
  for (const [re, purpose] of PURPOSE_WORDS) if (re.test(text)) return purpose;
  return undefined;
}

const VALIDATION: ReadonlySet<Purpose> = new Set(['test', 'lint', 'format', 'typecheck', 'check', 'build']);

/** Tests, lint, format, type checks, builds: the validation every session runs anyway. */
export const isValidation = (signature: string): boolean => {
  const purpose = purposeOf(signature);
  return purpose !== undefined && VALIDATION.has(purpose);
};

/** A short, file-name-safe slug of a signature for pattern keys. */
export function signatureSlug(signature: string): string {
  return signature
    .toLowerCase()
    .replace(/^\.\//, '')
    .replace(/[^a-z0-9:._/-]+/g, '-')
    .replace(/\//g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

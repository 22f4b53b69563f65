/**
 * What shell_exec may run, judged on the parsed argument list, never by a pattern over the
 * raw text (nanobot's regex allow-list over `bash -c` fell to chaining, comments and
 * wrappers). The model: a command line is ONE simple command. A small POSIX tokenizer splits
 * it into words (quotes and backslashes as in sh) and refuses, outright, everything that
 * would need a shell: operators (`;` `&&` `||` `|` `&`, redirections, subshells), command
 * and variable substitution (`$(…)`, backticks, `$X`), comments, globs and `~`. No shell is
 * ever started: the words run as argv. Wrappers (`env`, `nice`, `timeout`, `sh -c` …) are
 * stripped, `sh -c`'s text re-parsed by the same rules, and the command inside is judged
 * against a short block list. The block list is a courtesy that says the fix early; the
 * bubblewrap sandbox (sandbox.ts) is the boundary.
 */
import { basename } from 'node:path';
import { UsageError } from '../core/errors.js';

const HINT =
  'shell_exec runs one command with no shell: no ; && || | & < > ( ) $ ` # * ? ~. Run one command per call, quote arguments, and use paths relative to the workspace.';

function refuse(line: string, why: string, hint = HINT): never {
  throw new UsageError(`Refusing the command ${JSON.stringify(line.length > 120 ? `${line.slice(0, 117)}...` : line)}: ${why}.`, hint);
}

const OPERATORS = new Set([';', '&', '|', '<', '>', '(', ')', '\n', '\r']);

/** Why `$` at this point would expand something, or undefined when it is a plain dollar (`$` at the end, `$ `). Pure. */
function dollarProblem(next: string | undefined): string | undefined {
  if (next === '(') return 'command substitution `$(…)` needs a shell';
  if (next === '{' || (next !== undefined && /[A-Za-z0-9_@*#?$!-]/.test(next))) return 'variable expansion `$…` needs a shell';
  return undefined;
}

/** The words of `line` as sh would split them, or a refusal naming the first shell feature found. Pure. */
export function tokenize(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    const next = line[i + 1];
    if (c === '\0') refuse(line, 'it contains a NUL byte');
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
      continue;
    }
    if (c === '`') refuse(line, 'command substitution with backticks needs a shell');
    if (c === '$' && dollarProblem(next)) refuse(line, dollarProblem(next) as string);
    if (c === '\\') {
      if (next === undefined) refuse(line, 'it ends with a lone backslash');
      if (next === '\n') refuse(line, 'it continues over several lines');
      // Inside double quotes a backslash escapes only " \ $ ` (POSIX); elsewhere it keeps itself.
      word = (word ?? '') + (quote === '"' && !'"\\$`'.includes(next) ? c : '') + next;
      i++;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      word ??= '';
    } else if (c === ' ' || c === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (OPERATORS.has(c))
      refuse(line, c === '\n' || c === '\r' ? 'it has several lines' : `the shell operator \`${c}\` needs a shell`);
    else if (c === '#' && word === undefined) refuse(line, 'a comment `#` hides text from the reader');
    else if (c === '*' || c === '?') refuse(line, `the glob \`${c}\` needs a shell`, `${HINT} To match files, use find.`);
    else if (c === '~' && word === undefined) refuse(line, '`~` is not expanded here');
    else word = (word ?? '') + c;
  }
  if (quote) refuse(line, `the quote ${quote} is never closed`);
  if (word !== undefined) words.push(word);
  if (words.length === 0) refuse(line, 'it is empty', 'Give a command, e.g. "ls -la".');
  return words;
}

/** Options of each wrapper that take a value (so the value is not mistaken for the command). */
const WRAPPERS: Record<string, { valued: readonly string[]; positional?: number }> = {
  env: { valued: ['-u', '--unset', '-C', '--chdir', '-S', '--split-string'] },
  nice: { valued: ['-n', '--adjustment'] },
  nohup: { valued: [] },
  setsid: { valued: [] },
  stdbuf: { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] },
  ionice: { valued: ['-c', '-n', '--class', '--classdata', '-p', '-P', '-u'] },
  timeout: { valued: ['-s', '--signal', '-k', '--kill-after'], positional: 1 },
  time: { valued: ['-f', '--format', '-o', '--output'] },
  taskset: { valued: [], positional: 1 },
  chrt: { valued: [], positional: 1 },
  xargs: { valued: ['-a', '-d', '-E', '-e', '-I', '-i', '-L', '-l', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args'] },
  busybox: { valued: [] },
  prlimit: { valued: ['-p', '--pid'] },
};

const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox-sh']);

/** `argv` with one wrapper removed: what the wrapper would run; undefined when argv[0] is no wrapper. Pure. */
function unwrapOnce(argv: readonly string[], line: string): string[] | undefined {
  const name = basename(argv[0] ?? '');
  if (SHELLS.has(name)) {
    const at = argv.findIndex((a, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(a));
    if (at < 0) return undefined; // a script file (or stdin, which is empty): it runs in the sandbox
    const text = argv[at + 1];
    if (text === undefined) refuse(line, `\`${name} -c\` has no command text`);
    return tokenize(text);
  }
  const spec = WRAPPERS[name];
  if (!spec) return undefined;
  let i = 1;
  for (; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') {
      i++;
      break;
    }
    if (name === 'env' && (a === '-S' || a === '--split-string' || a.startsWith('--split-string='))) {
      const text = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[i + 1];
      return tokenize([text ?? '', ...argv.slice(a.includes('=') ? i + 1 : i + 2)].join(' '));
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) continue;
    if (!a.startsWith('-') || a === '-') break;
    if (spec.valued.includes(a)) i++;
  }
  return argv.slice(i + (spec.positional ?? 0));
}

/** The command a wrapped command line finally runs: `env A=1 nice -n 5 sh -c "rm -rf /"` gives rm, -rf, /. Pure. */
export function innermost(argv: readonly string[], line = argv.join(' ')): string[] {
  let current = [...argv];
  for (let depth = 0; depth < 16; depth++) {
    const inner = unwrapOnce(current, line);
    if (inner === undefined) return current;
    if (inner.length === 0) refuse(line, `\`${basename(current[0] ?? '')}\` wraps no command`);
    current = inner;
  }
  return refuse(line, 'it nests wrappers more than 16 deep');
}

const NO_NETWORK = 'The sandbox has no network. To read a web page, use the web_fetch tool.';

/** Programs never run, with why (they reach the network, the disks, the machine or other users). */
const BLOCKED: Record<string, string> = {
  ...Object.fromEntries(
    ['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'ssh', 'scp', 'sftp', 'ftp', 'telnet', 'rsync'].map((p) => [p, 'network']),
  ),
  ...Object.fromEntries(
    ['mkfs', 'mke2fs', 'mkswap', 'fdisk', 'sfdisk', 'parted', 'wipefs', 'shred', 'mount', 'umount', 'swapon', 'swapoff'].map((p) => [
      p,
      'disks',
    ]),
  ),
  ...Object.fromEntries(
    [
      'shutdown',
      'reboot',
      'halt',
      'poweroff',
      'init',
      'telinit',
      'systemctl',
      'kexec',
      'insmod',
      'rmmod',
      'modprobe',
      'iptables',
      'nft',
    ].map((p) => [p, 'machine']),
  ),
  ...Object.fromEntries(['sudo', 'su', 'doas', 'pkexec', 'chroot', 'nsenter', 'unshare', 'setpriv', 'bwrap'].map((p) => [p, 'privileges'])),
};

const BLOCK_WHY: Record<string, string> = {
  network: 'it reaches the network',
  disks: 'it formats, wipes or mounts disks',
  machine: 'it controls the machine',
  privileges: 'it changes privileges or namespaces',
};

/** Why the (unwrapped) `argv` must not run, or undefined. Pure. */
export function blockReason(argv: readonly string[]): string | undefined {
  const name = basename(argv[0] ?? '');
  const args = argv.slice(1);
  const kind = BLOCKED[name] ?? (name.startsWith('mkfs.') ? 'disks' : undefined);
  if (kind) return `\`${name}\` is blocked: ${BLOCK_WHY[kind]}`;
  const rootish = (a: string): boolean => /^\/+\.?\/*$/.test(a) || a === '/*';
  if (['rm', 'chmod', 'chown', 'chgrp'].includes(name) && (args.includes('--no-preserve-root') || args.some(rootish)))
    return `\`${name}\` on the root directory is blocked`;
  if (name === 'dd' && args.some((a) => /^of=\/dev\//.test(a))) return '`dd` onto a device is blocked';
  return undefined;
}

/** The argv shell_exec runs for `line` (a shell's `-c` text replaced by its own words), or a refusal. Pure. */
export function parseCommand(line: string): string[] {
  const argv = tokenize(line);
  const inner = innermost(argv, line);
  const blocked = blockReason(inner);
  if (blocked) refuse(line, blocked, BLOCKED[basename(inner[0] ?? '')] === 'network' ? NO_NETWORK : 'Run something else.');
  return withoutLeadingShell(argv, line);
}

/**
 * `argv` with a leading `sh -c TEXT` replaced by TEXT's words: `sh -c "ls -la"` runs ls itself
 * (its text passed the same rules). Other wrappers run as given. Pure.
 */
function withoutLeadingShell(argv: readonly string[], line: string): string[] {
  let current = [...argv];
  while (SHELLS.has(basename(current[0] ?? ''))) {
    const inner = unwrapOnce(current, line);
    if (inner === undefined) return current;
    current = inner;
  }
  return current;
}

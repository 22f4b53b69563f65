/**
 * The sandbox shell_exec runs in: Debian's bubblewrap. No network and no other namespace
 * shared, the root file system read-only, a private /tmp and /run, only the workspace
 * writable, no capabilities, a scrubbed environment, the Homunculus home and the user's home
 * (their ~/.ssh, ~/.aws, ~/.config and every other credential) hidden under empty tmpfs,
 * address-space and process limits set by prlimit inside, and a timeout that kills the whole
 * process tree (killing bwrap kills its PID namespace). Without bubblewrap nothing runs: it
 * fails closed, saying how to install it (Hermes let sandboxed code read its credentials).
 *
 * Root is exempt from RLIMIT_NPROC, so a fork bomb run as root would meet no process limit:
 * when the caller is root, the command drops to the workspace's owner (or `nobody` when root
 * owns it) with setpriv, inside the sandbox, before prlimit.
 */
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { isInside, realDirectory } from '../core/confine.js';
import { HomunculusError } from '../core/errors.js';

export const BWRAP = '/usr/bin/bwrap';
export const INSTALL_FIX = 'install bubblewrap: apt-get install bubblewrap';
const NOBODY = 65534;

export interface SandboxLimits {
  /** Wall-clock limit; the whole process tree is killed when it passes (default 30 s). */
  timeoutMs: number;
  /** Address space per process (default 512 MB). */
  memoryBytes: number;
  /** Processes the command may run at once (default 64). */
  maxProcesses: number;
  /** Output kept per stream; more ends the command as flooding (default 64 kB). */
  maxOutputBytes: number;
  /** Largest file a command may write (default 256 MB), and the size of its private /tmp (64 MB). */
  maxFileBytes: number;
}

export const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: 30_000,
  memoryBytes: 512 * 1024 * 1024,
  maxProcesses: 64,
  maxOutputBytes: 64 * 1024,
  maxFileBytes: 256 * 1024 * 1024,
};

const TMP_BYTES = 64 * 1024 * 1024;

/** Where a sandboxed command gets an empty private tmpfs of its own. */
export const PRIVATE_DIRS: readonly string[] = ['/tmp', '/run', '/var/tmp'];

export interface SandboxPlan {
  /** Real path of the workspace: the only writable place. */
  workspace: string;
  /** Real paths of directories hidden under an empty tmpfs (the Homunculus home, the user's home). */
  hidden: readonly string[];
  /** The workspace is bound read-only: the command writes only its private /tmp. */
  readOnly?: boolean;
  /** Paths inside the workspace (relative) bound read-only over the writable workspace, when they exist. */
  keep?: readonly string[];
  /** More environment variables for the command, beside the scrubbed few. */
  env?: Readonly<Record<string, string>>;
  /** The uid and gid the command drops to when the caller is root; undefined to stay the caller (in a user namespace). */
  dropTo?: { uid: number; gid: number };
  limits: SandboxLimits;
}

const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8', TMPDIR: '/tmp' };

/** The file system of the sandbox, in mount order. Pure. */
function mountArgs(plan: SandboxPlan): string[] {
  const ws = plan.workspace;
  const outer = plan.hidden.filter((h) => !isInside(h, ws)).sort((a, b) => a.length - b.length);
  const inner = plan.hidden.filter((h) => isInside(h, ws) && h !== ws);
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc'];
  args.push('--perms', '1777', '--size', String(TMP_BYTES));
  for (const dir of PRIVATE_DIRS) args.push('--tmpfs', dir);
  for (const dir of outer) args.push('--tmpfs', dir);
  // The workspace's parents inside a tmpfs are created traversable, so a dropped uid can reach it.
  const mounts = [...PRIVATE_DIRS, ...outer];
  const parents: string[] = [];
  for (let p = dirname(ws); p !== dirname(p); p = dirname(p)) if (mounts.some((m) => isInside(p, m))) parents.unshift(p);
  for (const p of parents) args.push('--perms', '0755', '--dir', p);
  args.push(plan.readOnly ? '--ro-bind' : '--bind', ws, ws);
  for (const path of plan.keep ?? []) args.push('--ro-bind-try', join(ws, path), join(ws, path));
  for (const dir of inner) args.push('--tmpfs', dir);
  return args;
}

/** The whole bwrap command line for `argv`. Pure. */
export function bwrapArgs(plan: SandboxPlan, argv: readonly string[]): string[] {
  const { limits, dropTo } = plan;
  // As root, no user namespace (it would map only uid 0, and setpriv could not drop to another uid).
  const namespaces = dropTo
    ? ['--unshare-ipc', '--unshare-pid', '--unshare-net', '--unshare-uts', '--unshare-cgroup-try']
    : ['--unshare-all', '--unshare-user'];
  const caps = dropTo
    ? ['--cap-drop', 'ALL', '--cap-add', 'CAP_SETUID', '--cap-add', 'CAP_SETGID', '--cap-add', 'CAP_SETPCAP']
    : ['--cap-drop', 'ALL'];
  const env = Object.entries({ ...ENV, ...plan.env, HOME: plan.workspace }).flatMap(([k, v]) => ['--setenv', k, v]);
  const drop = dropTo
    ? [
        'setpriv',
        `--reuid=${dropTo.uid}`,
        `--regid=${dropTo.gid}`,
        '--clear-groups',
        '--inh-caps=-all',
        '--bounding-set=-all',
        '--no-new-privs',
        '--',
      ]
    : [];
  const prlimit = [
    'prlimit',
    `--as=${limits.memoryBytes}`,
    `--nproc=${limits.maxProcesses}`,
    `--fsize=${limits.maxFileBytes}`,
    '--core=0',
    '--',
  ];
  return [
    ...namespaces,
    '--die-with-parent',
    '--new-session',
    ...caps,
    ...mountArgs(plan),
    '--chdir',
    plan.workspace,
    '--clearenv',
    ...env,
    '--',
    ...drop,
    ...prlimit,
    ...argv,
  ];
}

const executable = (path: string): boolean => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** What the sandbox is missing on this machine (bwrap, prlimit, setpriv for root), or undefined when nothing. */
export function sandboxProblem(bwrap = BWRAP, uid = process.getuid?.() ?? -1): string | undefined {
  if (!executable(bwrap)) return `bubblewrap (${bwrap}) is not installed, so shell_exec cannot run anything`;
  const missing = ['prlimit', ...(uid === 0 ? ['setpriv'] : [])].filter(
    (tool) => !['/usr/bin', '/bin'].some((d) => executable(`${d}/${tool}`)),
  );
  if (missing.length) return `${missing.join(' and ')} (util-linux) ${missing.length > 1 ? 'are' : 'is'} not installed`;
  return undefined;
}

export interface SandboxConfig {
  workspace: string;
  /** Bind the workspace read-only (default writable). */
  readOnly?: boolean;
  /** Paths inside the workspace (relative) that stay read-only in a writable one. */
  keep?: readonly string[];
  /** More environment variables for the command. */
  env?: Readonly<Record<string, string>>;
  /** The Homunculus home, hidden inside (its workspace is bound back). */
  home: string;
  /** The user's home, hidden inside (default $HOME; the account's home from the password file is hidden too). */
  userHome?: string;
  /** More directories to hide. */
  hide?: readonly string[];
  limits?: Partial<SandboxLimits>;
  bwrap?: string;
}

/**
 * Who a command runs as when the caller is root: the workspace's owner, or nobody when root owns
 * it; never in root's group (`chown -R nobody` leaves the group root, whose files it could then read). Undefined for a user. Pure.
 */
export function dropTarget(callerUid: number, owner: { uid: number; gid: number }): { uid: number; gid: number } | undefined {
  if (callerUid !== 0) return undefined;
  return owner.uid === 0 ? { uid: NOBODY, gid: NOBODY } : { uid: owner.uid, gid: owner.gid === 0 ? NOBODY : owner.gid };
}

/** What running as root means for a workspace, when it means something: its commands cannot write it. */
export function rootNote(workspace: string): string | undefined {
  if (process.getuid?.() !== 0 || statSync(workspace).uid !== 0) return undefined;
  return `running as root, shell_exec runs commands as nobody, and root owns ${workspace}: commands can read it but not write it (run the agent as a user, or chown -R nobody '${workspace}')`;
}

/** The caller's home in the password file (os.homedir() prefers $HOME, which may point elsewhere). */
function accountHome(): string {
  try {
    return userInfo().homedir;
  } catch {
    return homedir();
  }
}

/** The home of the account with `uid` in the password file, if it has one. */
export function passwdHome(uid: number, passwd = '/etc/passwd'): string | undefined {
  try {
    for (const line of readFileSync(passwd, 'utf8').split('\n')) {
      const f = line.split(':');
      if (f.length >= 7 && Number(f[2]) === uid && f[5]) return f[5];
    }
  } catch {
    /* no password file: nothing more to hide */
  }
  return undefined;
}

/** The directories hidden under an empty tmpfs: the Homunculus home, the user's home (both spellings), any more asked for. */
const homesToHide = (config: Pick<SandboxConfig, 'home' | 'userHome' | 'hide'>): string[] => [
  config.home,
  config.userHome ?? homedir(),
  accountHome(),
  ...(config.hide ?? []),
];

/** What a sandboxed command cannot see of the machine's files: the hidden homes and its private tmpfs directories. */
export const unseenDirs = (config: Pick<SandboxConfig, 'home' | 'userHome' | 'hide'>): string[] => [
  ...homesToHide(config),
  ...PRIVATE_DIRS,
];

/**
 * Why a command may not run while a path kept read-only is missing: a command could create it
 * (a HEARTBEAT.md full of tasks). Undefined when all are there.
 */
export function missingKept(workspace: string, keep: readonly string[]): HomunculusError | undefined {
  const missing = keep.filter((path) => !existsSync(join(workspace, path)));
  if (missing.length === 0) return undefined;
  const one = missing.length === 1;
  return new HomunculusError(
    'sandbox',
    `The workspace ${workspace} lacks ${missing.join(', ')}, which commands may not write: while ${one ? 'it is' : 'they are'} missing, a command could create ${one ? 'it' : 'them'}.`,
    { hint: 'Run `homunculus agent init` to put back what is missing (it keeps every file that is there).' },
  );
}

/** The plan for this machine and caller: real paths, the uid to drop to as root. */
export function planSandbox(config: SandboxConfig): SandboxPlan {
  const workspace = realDirectory(config.workspace);
  if (!workspace)
    throw new HomunculusError('sandbox', `The workspace ${config.workspace} does not exist.`, { hint: 'Run `homunculus agent init`.' });
  const missing = missingKept(workspace, config.keep ?? []);
  if (missing) throw missing;
  const dropTo = dropTarget(process.getuid?.() ?? -1, statSync(workspace));
  // As root, commands run as the workspace's owner: that account's own home is hidden too.
  const ownerHome = dropTo ? passwdHome(dropTo.uid) : undefined;
  const hidden = [...homesToHide(config), ...(ownerHome ? [ownerHome] : [])]
    .map((d) => realDirectory(d))
    .filter((d): d is string => d !== undefined && d !== '/' && d !== workspace);
  return {
    workspace,
    hidden: [...new Set(hidden)],
    ...(config.readOnly ? { readOnly: true } : {}),
    ...(config.keep?.length ? { keep: config.keep } : {}),
    ...(config.env ? { env: config.env } : {}),
    ...(dropTo ? { dropTo } : {}),
    limits: { ...DEFAULT_LIMITS, ...config.limits },
  };
}

export interface SandboxResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The timeout passed and the process tree was killed. */
  timedOut: boolean;
  /** Output passed the limit: it was cut there and the command ended. */
  truncated: boolean;
  durationMs: number;
}

export interface RunOptions {
  /** Written to the command's stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
}

/** Runs `argv` (no shell) in the sandbox; refuses, failing closed, when bubblewrap is missing. */
export async function runSandboxed(argv: readonly string[], config: SandboxConfig, options: RunOptions = {}): Promise<SandboxResult> {
  const bwrap = config.bwrap ?? BWRAP;
  const problem = sandboxProblem(bwrap);
  if (problem) throw new HomunculusError('sandbox', `${problem}.`, { hint: INSTALL_FIX });
  const plan = planSandbox(config);
  return runCommand([bwrap, ...bwrapArgs(plan, argv)], { limits: plan.limits, input: options.input, env: { PATH: ENV.PATH } }).catch(
    (err: Error) => {
      throw new HomunculusError('sandbox', `Cannot start bubblewrap: ${err.message}`, { hint: INSTALL_FIX });
    },
  );
}

export interface CommandOptions {
  limits: Pick<SandboxLimits, 'timeoutMs' | 'maxOutputBytes'>;
  /** Written to stdin, which is then closed; without it stdin is /dev/null. */
  input?: string | undefined;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Runs `argv` (no shell) in a process group of its own, so the timeout or flooding output kills
 * the whole tree (bwrap and, with it, the sandbox's PID namespace). Rejects when it cannot start.
 */
export function runCommand(argv: readonly string[], o: CommandOptions): Promise<SandboxResult> {
  const { limits, input } = o;
  const started = process.hrtime.bigint();
  const stdin = input === undefined ? 'ignore' : 'pipe';
  const child = spawn(argv[0] as string, argv.slice(1), { detached: true, stdio: [stdin, 'pipe', 'pipe'], env: o.env, cwd: o.cwd });
  if (child.stdin) {
    // A command that exits without reading closes the pipe: EPIPE is its choice, not our failure.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  }
  const out = { stdout: [] as Buffer[], stderr: [] as Buffer[], bytes: { stdout: 0, stderr: 0 } };
  let timedOut = false;
  let truncated = false;
  const kill = (): void => {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  const collect = (stream: 'stdout' | 'stderr') => (chunk: Buffer) => {
    const room = limits.maxOutputBytes - out.bytes[stream];
    if (room > 0) out[stream].push(chunk.subarray(0, room));
    out.bytes[stream] += chunk.length;
    if (chunk.length > room && !truncated) {
      truncated = true;
      kill();
    }
  };
  child.stdout?.on('data', collect('stdout'));
  child.stderr?.on('data', collect('stderr'));
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, limits.timeoutMs);
  return new Promise((done, fail) => {
    child.on('error', (err) => {
      clearTimeout(timer);
      fail(err);
    });
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      done({
        exitCode,
        signal,
        stdout: Buffer.concat(out.stdout).toString('utf8'),
        stderr: Buffer.concat(out.stderr).toString('utf8'),
        timedOut,
        truncated,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      });
    });
  });
}

/** Whether bubblewrap really starts a sandbox here (for `doctor`): it is installed and runs `true` with no network. */
export function sandboxWorks(bwrap = BWRAP): { ok: boolean; detail: string } {
  const problem = sandboxProblem(bwrap);
  if (problem) return { ok: false, detail: problem };
  const r = spawnSync(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--cap-drop', 'ALL', '--', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.status === 0) return { ok: true, detail: `${bwrap} runs sandboxes (no network, read-only root)` };
  return { ok: false, detail: `${bwrap} cannot start a sandbox here: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}` };
}

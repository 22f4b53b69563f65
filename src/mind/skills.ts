/**
 * Skills are standalone programs in skills/<name>/ with a main entry point; the kernel runs
 * them as subprocesses (stdin in, stdout out) with a timeout. Skills never call each other.
 *
 * When bubblewrap works here, a skill runs in the agent's sandbox (src/agent/sandbox.ts): no
 * network, the Homunculus home and the user's home hidden, the limits of shell_exec. Its own
 * folder is bound back read-only as its working directory and its private /tmp is the only
 * place it writes: skills are model-written code, so one may not rewrite itself past the
 * kernel's --help check nor leave files in the home. Without bubblewrap a skill runs as a
 * plain subprocess, and the run says so (`sandboxed: false`) for the caller to record.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { runSandboxed, type SandboxResult, sandboxProblem } from '../agent/sandbox.js';
import { isInside } from '../core/confine.js';
import { HomunculusError } from '../core/errors.js';

type Interpreter = 'node' | 'python3' | 'sh';

/** The interpreter of each entry point the kernel knows. */
const ENTRY: Readonly<Record<string, Interpreter>> = {
  'main.mjs': 'node',
  'main.js': 'node',
  'main.py': 'python3',
  'main.sh': 'sh',
};

/** The instance's skills: folders of skills/ holding a known entry point. */
export function listSkills(skills: string): string[] {
  if (!existsSync(skills)) return [];
  return readdirSync(skills)
    .filter((name) => statSync(join(skills, name)).isDirectory() && entryOf(join(skills, name)) !== undefined)
    .sort();
}

const entryOf = (dir: string): string | undefined => Object.keys(ENTRY).find((f) => existsSync(join(dir, f)));

export interface SkillRun {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** It ran in the sandbox; false when bubblewrap is missing here or the caller asked for none. */
  sandboxed: boolean;
}

export interface SkillOptions {
  /** The Homunculus home, hidden from the skill in the sandbox. */
  home: string;
  /** Wall-clock limit; the skill's process tree is killed when it passes (default 30 s). */
  timeoutMs?: number;
  /** false runs it as a plain subprocess (default: in the sandbox when it works here). */
  sandbox?: boolean;
}

const OUTPUT_BYTES = 64 * 1024;
/** Address space per process: node's V8 reserves some 800 MB before it runs a line, so shell_exec's 512 MB would stop it. */
const MEMORY_BYTES = 2 * 1024 * 1024 * 1024;

/**
 * The program running an entry point. Node is the one running us, so an nvm install works,
 * unless the sandbox hides where it lives (a home, /tmp): then `node` on the sandbox's PATH. Pure.
 */
export function interpreter(name: Interpreter, sandboxed: boolean, execPath: string, hidden: readonly string[]): string {
  if (name !== 'node') return name;
  return sandboxed && hidden.some((dir) => isInside(execPath, dir)) ? 'node' : execPath;
}

function hiddenDirs(home: string): string[] {
  let account: string[] = [];
  try {
    account = [userInfo().homedir];
  } catch {
    /* no entry in the password file */
  }
  return [home, homedir(), ...account, '/tmp', '/run', '/var/tmp'];
}

export async function runSkill(skills: string, name: string, args: string[], input: string, options: SkillOptions): Promise<SkillRun> {
  const dir = join(skills, name);
  const entry = entryOf(dir);
  if (!entry)
    throw new HomunculusError('not_found', `The skill ${name} has no entry point in ${dir}.`, {
      hint: `give it one of ${Object.keys(ENTRY).join(', ')}`,
    });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const sandboxed = options.sandbox !== false && sandboxProblem() === undefined;
  const argv = [interpreter(ENTRY[entry] as Interpreter, sandboxed, process.execPath, hiddenDirs(options.home)), entry, ...args];
  if (!sandboxed) return { ...(await runPlain(argv, dir, input, timeoutMs)), sandboxed };
  try {
    const config = {
      workspace: dir,
      readOnly: true,
      home: options.home,
      limits: { timeoutMs, maxOutputBytes: OUTPUT_BYTES, memoryBytes: MEMORY_BYTES },
    };
    return { ...skillResult(await runSandboxed(argv, config, { input }), timeoutMs), sandboxed };
  } catch (err) {
    return { ok: false, stdout: '', stderr: `the sandbox could not run it: ${(err as Error).message}`, sandboxed };
  }
}

const withLine = (text: string, line: string): string => `${text}${text && !text.endsWith('\n') ? '\n' : ''}${line}`;

/** What a sandboxed run means for the kernel: a timeout or flooding output is a failure, said in stderr. Pure. */
export function skillResult(r: SandboxResult, timeoutMs: number): Omit<SkillRun, 'sandboxed'> {
  const why = r.timedOut
    ? `timed out after ${timeoutMs} ms and was killed`
    : r.truncated
      ? `its output passed ${OUTPUT_BYTES} bytes and it was ended`
      : undefined;
  if (why) return { ok: false, stdout: r.stdout, stderr: withLine(r.stderr, why) };
  return { ok: r.exitCode === 0, stdout: r.stdout, stderr: r.stderr };
}

/** The skill as a plain subprocess, when there is no sandbox: stdin written, its process group killed at the timeout. */
function runPlain(argv: string[], cwd: string, input: string, timeoutMs: number): Promise<Omit<SkillRun, 'sandboxed'>> {
  const child = spawn(argv[0] as string, argv.slice(1), { cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  let why: string | undefined;
  const kill = (reason: string): void => {
    why ??= reason;
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8');
    child[stream].on('data', (chunk: string) => {
      out[stream] += chunk;
      if (out[stream].length > OUTPUT_BYTES) kill(`its output passed ${OUTPUT_BYTES} bytes and it was ended`);
    });
  }
  // A skill that exits without reading closes the pipe: EPIPE is its choice, not our failure.
  child.stdin.on('error', () => {});
  child.stdin.end(input);
  const timer = setTimeout(() => kill(`timed out after ${timeoutMs} ms and was killed`), timeoutMs);
  return new Promise((done) => {
    const finish = (ok: boolean, note?: string): void => {
      clearTimeout(timer);
      done({ ok, stdout: out.stdout.slice(0, OUTPUT_BYTES), stderr: note ? withLine(out.stderr, note) : out.stderr });
    };
    child.on('error', (err) => finish(false, `could not start ${argv[0]}: ${err.message}`));
    child.on('close', (code) => finish(why === undefined && code === 0, why));
  });
}

/** A created skill is accepted only when it answers --help (exit 0, some text); otherwise it is removed. */
export async function acceptSkill(skills: string, name: string, options: SkillOptions): Promise<string | undefined> {
  const timeoutMs = Math.min(options.timeoutMs ?? 10_000, 10_000);
  const help = entryOf(join(skills, name)) ? await runSkill(skills, name, ['--help'], '', { ...options, timeoutMs }) : undefined;
  if (help?.ok && help.stdout.trim()) return undefined;
  rmSync(join(skills, name), { recursive: true, force: true });
  return `the skill ${name} did not answer --help (${help ? help.stderr.trim() || `exit code not 0 or no text` : 'no entry point'}); it was removed`;
}

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
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand, runSandboxed, type SandboxResult, sandboxProblem, unseenDirs } from '../agent/sandbox.js';
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

/**
 * Our own Node under the sandbox's address-space limit: its WebAssembly guard regions (fetch's
 * HTTP parser) would not fit, and `fetch` failed with "Out of memory" instead of its real error.
 */
const nodeEnv = (program: string | undefined): { env?: Record<string, string> } =>
  program === process.execPath ? { env: { NODE_OPTIONS: '--disable-wasm-trap-handler' } } : {};

export async function runSkill(skills: string, name: string, args: string[], input: string, options: SkillOptions): Promise<SkillRun> {
  const dir = join(skills, name);
  const entry = entryOf(dir);
  if (!entry)
    throw new HomunculusError('not_found', `The skill ${name} has no entry point in ${dir}.`, {
      hint: `give it one of ${Object.keys(ENTRY).join(', ')}`,
    });
  const timeoutMs = options.timeoutMs ?? 30_000;
  const sandboxed = options.sandbox !== false && sandboxProblem() === undefined;
  const argv = [interpreter(ENTRY[entry] as Interpreter, sandboxed, process.execPath, unseenDirs(options)), entry, ...args];
  const limits = { timeoutMs, maxOutputBytes: OUTPUT_BYTES, memoryBytes: MEMORY_BYTES };
  try {
    const run = sandboxed
      ? runSandboxed(argv, { workspace: dir, readOnly: true, home: options.home, limits, ...nodeEnv(argv[0]) }, { input })
      : runCommand(argv, { limits, input, cwd: dir, env: process.env });
    return { ...skillResult(await run, timeoutMs), sandboxed };
  } catch (err) {
    const how = sandboxed ? 'the sandbox could not run it' : `could not start ${argv[0]}`;
    return { ok: false, stdout: '', stderr: `${how}: ${(err as Error).message}`, sandboxed };
  }
}

const withLine = (text: string, line: string): string => `${text}${text && !text.endsWith('\n') ? '\n' : ''}${line}`;

/** What a run means for the kernel: a timeout or flooding output is a failure, said in stderr. Pure. */
export function skillResult(r: SandboxResult, timeoutMs: number): Omit<SkillRun, 'sandboxed'> {
  const why = r.timedOut
    ? `timed out after ${timeoutMs} ms and was killed`
    : r.truncated
      ? `its output passed ${OUTPUT_BYTES} bytes and it was ended`
      : undefined;
  if (why) return { ok: false, stdout: r.stdout, stderr: withLine(r.stderr, why) };
  return { ok: r.exitCode === 0, stdout: r.stdout, stderr: r.stderr };
}

/** A created skill is accepted only when it answers --help (exit 0, some text); otherwise it is removed. */
export async function acceptSkill(skills: string, name: string, options: SkillOptions): Promise<string | undefined> {
  const timeoutMs = Math.min(options.timeoutMs ?? 10_000, 10_000);
  const help = entryOf(join(skills, name)) ? await runSkill(skills, name, ['--help'], '', { ...options, timeoutMs }) : undefined;
  if (help?.ok && help.stdout.trim()) return undefined;
  rmSync(join(skills, name), { recursive: true, force: true });
  return `the skill ${name} did not answer --help (${help ? help.stderr.trim() || `exit code not 0 or no text` : 'no entry point'}); it was removed`;
}

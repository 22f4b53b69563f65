/**
 * Skills are standalone programs in skills/<name>/ with a main entry point; the kernel runs
 * them as subprocesses (stdin in, stdout out) with a timeout. Skills never call each other.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { HomunculusError } from '../core/errors.js';

/** The interpreter of each entry point the kernel knows. */
const ENTRY: Readonly<Record<string, string>> = {
  'main.mjs': process.execPath,
  'main.js': process.execPath,
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
}

export function runSkill(skills: string, name: string, args: string[], input: string, timeoutMs = 30_000): SkillRun {
  const dir = join(skills, name);
  const entry = entryOf(dir);
  if (!entry)
    throw new HomunculusError('not_found', `The skill ${name} has no entry point in ${dir}.`, {
      hint: `give it one of ${Object.keys(ENTRY).join(', ')}`,
    });
  const r = spawnSync(ENTRY[entry] as string, [join(dir, entry), ...args], { cwd: dir, input, encoding: 'utf8', timeout: timeoutMs });
  const timedOut = r.error !== undefined || r.signal !== null;
  return {
    ok: !timedOut && r.status === 0,
    stdout: r.stdout ?? '',
    stderr: timedOut ? `timed out or failed: ${r.error?.message ?? r.signal}` : (r.stderr ?? ''),
  };
}

/** A created skill is accepted only when it answers --help (exit 0, some text); otherwise it is removed. */
export function acceptSkill(skills: string, name: string): string | undefined {
  const help = entryOf(join(skills, name)) ? runSkill(skills, name, ['--help'], '', 10_000) : undefined;
  if (help?.ok && help.stdout.trim()) return undefined;
  rmSync(join(skills, name), { recursive: true, force: true });
  return `the skill ${name} did not answer --help (${help ? help.stderr.trim() || `exit code not 0 or no text` : 'no entry point'}); it was removed`;
}

/**
 * A mind instance on disk: data/ (under git, for rollback and audit), skills/<name>/ and
 * prompts/<step>/. `init` copies the package's template (prompts/mind/instance/), so no
 * prompt text lives in the source.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HomunculusError } from '../core/errors.js';
import { ensureDir } from '../core/fs.js';
import { corruptFiles, goalsPath, goalsSource, readGoals, readValues, writeGoals } from './files.js';
import { PROMPTED_STEPS } from './loops.js';
import { LOOPS } from './permissions.js';
import { goalsSchema } from './schemas.js';

export interface InstancePaths {
  root: string;
  data: string;
  skills: string;
  prompts: string;
}

export const instancePaths = (root: string): InstancePaths => ({
  root,
  data: join(root, 'data'),
  skills: join(root, 'skills'),
  prompts: join(root, 'prompts'),
});

/** The mind's instance folder inside a Homunculus home. */
export const instanceRoot = (home: string): string => join(home, 'mind');

export const TEMPLATE = fileURLToPath(new URL('../../prompts/mind/instance/', import.meta.url));

/** The prompt folders: one per step of the three loops (and the create-skill tool). */
export const STEPS = LOOPS.flatMap((loop) => PROMPTED_STEPS[loop].map((step) => `${loop}-${step}`));

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export function git(cwd: string, args: string[]): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { code?: string; stderr?: string };
    throw new HomunculusError(
      'git',
      `git ${args.join(' ')} failed in ${cwd}: ${e.code === 'ENOENT' ? 'git is not installed' : (e.stderr ?? '').trim()}`,
      {
        hint: 'install git (the mind keeps data/ under git for rollback and audit) and run the command again',
      },
    );
  }
}

export interface InitReport {
  root: string;
  created: string[];
  kept: string[];
  commit?: string;
}

/**
 * Scaffolds the instance; files already there are kept (init is safe to run again). The
 * year's goals start from the template's goals.json, unless an earlier year's carry over. data/ gets its first commit here, made
 * by this explicit command; later commits are the user's.
 */
export function initInstance(root: string, year: number, template = TEMPLATE): InitReport {
  const paths = instancePaths(root);
  const report: InitReport = { root, created: [], kept: [] };
  for (const source of filesUnder(template)) {
    const rel = relative(template, source);
    const goals = rel === join('data', 'goals.json');
    // An earlier year's goals carry over into this one: the template's would replace them.
    const target = goals ? (goalsSource(paths.data, year)?.path ?? goalsPath(paths.data, year)) : join(root, rel);
    if (existsSync(target)) {
      report.kept.push(relative(root, target));
      continue;
    }
    ensureDir(join(target, '..'));
    if (goals) writeGoals(paths.data, year, goalsSchema.parse(JSON.parse(readFileSync(source, 'utf8'))));
    else copyFileSync(source, target);
    report.created.push(relative(root, target));
  }
  ensureDir(join(paths.data, 'memory'));
  // Validate what is there, so a corrupt file kept from before is reported now.
  readValues(paths.data);
  readGoals(paths.data, year);
  if (!existsSync(join(paths.data, '.git'))) {
    git(paths.data, ['init', '--quiet']);
    report.commit = commitData(paths.data, 'mind init');
  }
  return report;
}

/** A commit of a corrupt file would make the corruption the version its restore fix (`git checkout`) brings back. */
function refuseCorrupt(data: string): void {
  const corrupt = corruptFiles(data);
  if (corrupt.length === 0) return;
  throw new HomunculusError(
    'corrupt',
    [
      `Nothing was committed: ${corrupt.length === 1 ? 'a file' : `${corrupt.length} files`} in data/ ${corrupt.length === 1 ? 'is' : 'are'} corrupt, and a commit would make ${corrupt.length === 1 ? 'it' : 'them'} the version to restore.`,
      ...corrupt.map((e) => `  ${e.message}`),
    ].join('\n'),
    { hint: `${corrupt.map((e) => e.hint).join('; ')}; then commit again` },
  );
}

/**
 * Commits everything in data/ (seed 004: commits are manual, made by the user or by an
 * explicit command); the new commit, or undefined when nothing changed since the last one.
 * Refused, committing nothing, while a file there is corrupt.
 */
export function commitData(data: string, message: string): string | undefined {
  if (!existsSync(join(data, '.git')))
    throw new HomunculusError('not_found', `${data} is not under git, so there is nothing to commit to.`, {
      hint: 'run homunculus mind init: it puts data/ under git and keeps every file there',
    });
  refuseCorrupt(data);
  git(data, ['add', '--all']);
  if (git(data, ['status', '--porcelain']).trim() === '') return undefined;
  // The user's own git identity when they have one; a fixed one otherwise, so it never fails for lack of it.
  const identity = gitIdentity(data) ? [] : ['-c', 'user.name=homunculus', '-c', 'user.email=mind@homunculus.invalid'];
  git(data, [...identity, 'commit', '--quiet', '-m', message]);
  return git(data, ['rev-parse', 'HEAD']).trim();
}

function gitIdentity(cwd: string): boolean {
  try {
    return git(cwd, ['config', 'user.email']).trim() !== '';
  } catch {
    return false;
  }
}

export function requireInstance(root: string): InstancePaths {
  const paths = instancePaths(root);
  if (!existsSync(paths.data))
    throw new HomunculusError('not_found', `No mind instance in ${root}.`, { hint: 'create one: homunculus mind init' });
  return paths;
}

/**
 * A checkout joined to the history imported for its repository. History synced from folders this
 * machine does not have (a teammate's transcripts, a removed clone) is filed under the
 * repository's name; a checkout here is filed under its remote. The first time such a checkout
 * is seen with nothing of its own, it takes that history's project, and every hook and command
 * in it then reads and writes there (projects.json in the home, read without the database so
 * the observe hook can follow it).
 */
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from './fs.js';
import { type ProjectInfo, detectProject, fingerprintOf, isFingerprint, normaliseRemote } from './project.js';

interface Alias {
  fingerprint: string;
  name: string;
}
type Aliases = Record<string, Alias>;

function readAliases(path: string): Aliases {
  if (!existsSync(path)) return {};
  try {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof raw !== 'object' || raw === null) return {};
    const out: Aliases = {};
    for (const [from, to] of Object.entries(raw as Record<string, unknown>)) {
      const alias = to as Partial<Alias> | null;
      if (isFingerprint(from) && typeof alias?.fingerprint === 'string' && isFingerprint(alias.fingerprint))
        out[from] = { fingerprint: alias.fingerprint, name: typeof alias.name === 'string' ? alias.name : '' };
    }
    return out;
  } catch {
    return {};
  }
}

/** The project as this home files it: the imported history's, when the checkout was joined to it. */
export function aliasedProject(info: ProjectInfo, aliasesPath: string): ProjectInfo {
  const alias = info.fingerprint ? readAliases(aliasesPath)[info.fingerprint] : undefined;
  return alias ? { ...info, fingerprint: alias.fingerprint, name: alias.name || info.name } : info;
}

/** detectProject, as this home files the directory. */
export const projectIn = (cwd: string, aliasesPath: string): ProjectInfo => aliasedProject(detectProject(cwd), aliasesPath);

/** The repository's own name: the last part of its remote, else its folder. */
const repositoryName = (info: ProjectInfo): string =>
  info.remote
    ?.replace(/\.git\/?$/, '')
    .split(/[/:]/)
    .filter(Boolean)
    .at(-1) ?? info.name;

interface Twin {
  alias: Alias;
  /** What that history names when it is this repository's: its owner and name ("entireio/cli"). */
  mark: string;
}

/**
 * Where history imported for this checkout's repository would be filed: under its name, for a
 * checkout with a remote (a folder without one is its own path, and imported history is already
 * filed by name).
 */
export function importedTwin(info: ProjectInfo): Twin | undefined {
  if (!info.remote) return undefined;
  const name = repositoryName(info);
  const mark = normaliseRemote(info.remote).split('/').slice(-2).join('/');
  return name && mark.includes('/') ? { alias: { fingerprint: fingerprintOf(`name:${name}`), name }, mark } : undefined;
}

/** Records that `from` is filed as `to`; false when another checkout was joined to `to` already. */
export function joinProject(aliasesPath: string, from: string, to: Alias): boolean {
  const aliases = readAliases(aliasesPath);
  if (Object.entries(aliases).some(([k, a]) => k !== from && a.fingerprint === to.fingerprint)) return false;
  writeFileAtomic(aliasesPath, `${JSON.stringify({ ...aliases, [from]: to }, null, 2)}\n`);
  return true;
}

/** The checkouts joined to another project's history (a checkout kept apart maps to itself and is left out). */
export function projectJoins(aliasesPath: string): { from: string; to: string; name: string }[] {
  return Object.entries(readAliases(aliasesPath))
    .filter(([from, alias]) => alias.fingerprint !== from)
    .map(([from, alias]) => ({ from, to: alias.fingerprint, name: alias.name }));
}

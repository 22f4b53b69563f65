/**
 * The personal agent's workspace: the one directory its file tools and sandboxed commands
 * may write. Every path a tool is given is judged twice: as text (no `..`, no absolute path,
 * no `~`, no NUL byte: nanobot let `~` escape its workspace), then as the place it really
 * leads (symbolic links resolved through the deepest existing parent), which must lie inside.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isInside, realTarget } from '../core/confine.js';
import { UsageError } from '../core/errors.js';
import { ensureDir } from '../core/fs.js';
import { PERSONA_SCAFFOLD, SOUL_GUIDE } from './persona.js';

const FIX = 'Give a path relative to the workspace, e.g. "notes/today.md".';

/** Why `requested` may not name a workspace path, judged on its text alone; undefined when it may. Pure. */
export function pathProblem(requested: string): string | undefined {
  if (requested.includes('\0')) return 'contains a NUL byte';
  if (requested.trim() === '') return 'is empty';
  if (requested.startsWith('~')) return 'starts with `~` (no home directory is expanded here)';
  if (requested.startsWith('/') || requested.startsWith('\\') || /^[A-Za-z]:/.test(requested)) return 'is absolute';
  if (requested.split(/[/\\]+/).includes('..')) return 'climbs out with `..`';
  return undefined;
}

/**
 * The real path `requested` leads to inside the workspace `root`, or a usage error saying
 * why not. Symbolic links are followed through the deepest existing parent (the file may
 * not exist yet), so a link in the workspace that points outside is refused, as is one that
 * points at nothing (a write would create its target wherever it points).
 */
export function resolveInWorkspace(root: string, requested: string): string {
  const problem = pathProblem(requested);
  if (problem) throw new UsageError(`Refusing the path ${JSON.stringify(requested)}: it ${problem}.`, FIX);
  if (!existsSync(root)) throw new UsageError(`The workspace ${root} does not exist.`, 'Run `homunculus agent init`.');
  const realRoot = realTarget(root);
  let real: string;
  try {
    real = realTarget(join(realRoot, requested));
  } catch (err) {
    throw new UsageError(`Refusing the path ${JSON.stringify(requested)}: ${(err as Error).message}`, FIX);
  }
  if (!isInside(real, realRoot))
    throw new UsageError(
      `Refusing the path ${JSON.stringify(requested)}: a symbolic link leads it outside the workspace (to ${real}).`,
      FIX,
    );
  return real;
}

/** The workspace's configuration (instructions, personas, skills, standing tasks): read-only to sandboxed commands. */
export const WORKSPACE_CONFIGURATION: readonly string[] = ['AGENTS.md', 'agents', 'skills', 'HEARTBEAT.md'];

/**
 * The configuration entry a first path part names, or undefined. Compared as a case-insensitive
 * file system would (macOS, Windows): `Agents.md` opens `AGENTS.md` there. NFKC, then upper and
 * lower case, folds compatibility forms and letters such as `ſ` or the Kelvin sign onto ASCII;
 * Windows ignores trailing dots and spaces. Folding too much only refuses more.
 */
export function configurationEntry(part: string): string | undefined {
  const key = foldName(part);
  return WORKSPACE_CONFIGURATION.find((name) => foldName(name) === key);
}

const foldName = (name: string): string =>
  name
    .normalize('NFKC')
    .toUpperCase()
    .toLowerCase()
    .replace(/[. ]+$/, '');

/** What `agent init` puts in a new workspace; files that exist already are left alone. */
export const SCAFFOLD: readonly { path: string; content?: string }[] = [
  {
    path: 'AGENTS.md',
    content: `# Agents

Instructions every agent of this workspace reads before it answers. Keep them short and
concrete: who you are working for, what matters to them, what never to do.

- Work only inside this workspace; ask before writing files or running commands.
- Say when you are unsure instead of guessing.
`,
  },
  {
    path: 'agents/default/SOUL.md',
    content: `# Soul of the default agent

${SOUL_GUIDE}

- Helpful, direct and honest; brief unless asked for depth.
- Remembers what it learns through Homunculus, and says where a memory came from.
`,
  },
  ...PERSONA_SCAFFOLD,
  { path: 'skills' },
  {
    path: 'HEARTBEAT.md',
    content: `# Heartbeat

Tasks the agent runs on every heartbeat (agent.heartbeat.every, 30 minutes by default),
one list item each, through the local model; the results come as notifications. E.g.:

<!-- Commented out, so it does not run: remove the comment marks to use it.
- Summarise what changed in notes/ since the last heartbeat.
-->
`,
  },
];

export interface ScaffoldResult {
  workspace: string;
  created: string[];
  existing: string[];
}

/** Creates the workspace and every missing scaffold file or folder; never overwrites one. */
export function scaffoldWorkspace(root: string): ScaffoldResult {
  ensureDir(root);
  const result: ScaffoldResult = { workspace: root, created: [], existing: [] };
  for (const item of SCAFFOLD) {
    const path = join(root, item.path);
    if (existsSync(path)) {
      result.existing.push(item.path);
      continue;
    }
    if (item.content === undefined) ensureDir(path);
    else {
      ensureDir(join(path, '..'));
      // 'wx': a file that appeared since the check is kept, never overwritten.
      writeFileSync(path, item.content, { flag: 'wx' });
    }
    result.created.push(item.content === undefined ? `${item.path}/` : item.path);
  }
  return result;
}

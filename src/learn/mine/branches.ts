/**
 * How a project brings a branch up to date: merging or rebasing on a branch of the remote
 * (`origin/main`, a stacked PR's parent) rather than on a local branch. Work kept in git
 * worktrees leaves the local `main` stale or checked out elsewhere, and `git merge main`
 * then reports "Already up to date" while the PR conflicts. A merge that stops on conflicts
 * still counts: the command was the right one. Pure functions, no I/O.
 */
import { shellWords } from '../../core/shell.js';
import { slugify, truncate } from '../../core/text.js';
import { type Obs, isBash } from '../observation.js';
import { type Candidate, backtick, seenIn } from './candidate.js';
import { splitCommand } from './commands.js';

/** The remote ref a segment merges, rebases on or pulls, e.g. `origin/main`. */
export function remoteBase(segment: string): string | undefined {
  const words = shellWords(segment).filter((w) => !w.startsWith('-'));
  const at = words.indexOf('git');
  const sub = words[at + 1];
  if (at < 0 || !sub) return undefined;
  if (sub === 'merge' || sub === 'rebase') return words.slice(at + 2).find((w) => /^(?:origin|upstream)\/[\w./-]+$/.test(w));
  if (sub === 'pull' && /^(?:origin|upstream)$/.test(words[at + 2] ?? '') && words[at + 3]) return `${words[at + 2]}/${words[at + 3]}`;
  return undefined;
}

const WORKTREE = /\/\.?worktrees?\/|already (?:used|checked out) by worktree/;

/** One candidate when the session updated a branch from the remote. */
export function mineBranchUpdates(observations: readonly Obs[]): Candidate[] {
  const bases: string[] = [];
  let last: Obs | undefined;
  let worktrees = false;
  for (const o of observations) {
    if (!isBash(o)) continue;
    if (WORKTREE.test(o.cwd) || WORKTREE.test(o.error)) worktrees = true;
    if (o.outcome === 'blocked') continue;
    for (const segment of splitCommand(o.input)) {
      const base = remoteBase(segment.text);
      if (!base) continue;
      if (!bases.includes(base)) bases.push(base);
      last = o;
    }
  }
  if (!last) return [];
  const where = last.projectName || 'this project';
  const why = worktrees ? ': work here happens in git worktrees, so the local `main` is stale or checked out elsewhere' : '';
  return [
    {
      key: `pref:${slugify(where)}/update-branch=remote-base`,
      category: 'preference',
      domain: 'git',
      title: `${where}: update branches from the remote base`,
      trigger: `when asked to update the branch or fix its merge conflicts in ${where}`,
      action: `Run \`git fetch origin\`, then merge (or rebase on) \`origin/main\` or the stacked PR's parent branch on origin, not a local branch${why}.`,
      explain: `Updated from ${bases.map(backtick).join(', ')}.`,
      evidence: [`${backtick(truncate(last.input, 100))}${worktrees ? ' in a git worktree' : ''}`],
      subjects: bases,
      miner: 'recipe',
      notable: false,
      tags: ['git', 'branch'],
      ...seenIn(last),
      facts: { bases, worktrees },
    },
  ];
}

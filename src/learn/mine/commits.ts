/**
 * How a project's commits are written: when the commit messages of a session follow
 * Conventional Commits (`fix(inventory): handle empty stock`), that is a convention of the
 * repository a fresh session would not know; the same in several sessions is a rule. Pure.
 */
import { slugify, truncate } from '../../core/text.js';
import { type Obs, isBash } from '../observation.js';
import { type Candidate, seenIn } from './candidate.js';

const CONVENTIONAL = /^(feat|fix|docs|style|refactor|perf|test|tests|build|ci|chore|revert)(\([\w ./,-]+\))?!?: \S/;
/** A session where fewer of its commits follow it shows no convention. */
const SHARE = 0.8;

/** The first line of each message a `git commit` command gives (`-m "..."`, `-m '...'`, or a heredoc). Pure. */
export function commitMessages(command: string): string[] {
  const at = command.search(/\bgit\s+commit\b/);
  if (at < 0) return [];
  // Only what follows `git commit`: a heredoc written to a file before it is no message.
  const commit = command.slice(at);
  const heredoc = /<<-?\s*['"]?(\w+)['"]?[^\n]*\n([\s\S]*?)\n\s*\1\b/.exec(commit);
  if (heredoc) return [(heredoc[2] as string).trim().split('\n')[0]?.trim() ?? ''].filter(Boolean);
  const out: string[] = [];
  for (const m of commit.matchAll(/(?:^|\s)(?:-[a-zA-Z]*m|--message)(?:=|\s+)(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/g)) {
    const message = (m[1] ?? m[2] ?? '').replace(/\\(.)/g, '$1').trim().split('\n')[0]?.trim();
    if (message && !message.startsWith('$(')) out.push(message);
    break; // later -m are the body's paragraphs
  }
  return out;
}

const commitsOf = (observations: readonly Obs[]) =>
  observations.filter((o) => isBash(o) && o.outcome === 'ok').flatMap((o) => commitMessages(o.input).map((m) => ({ o, m })));

/** Sessions of a project whose commits were written otherwise: the rule must hold in most of them (apply.ts). */
export const OTHER_STYLE_KEY = 'commit-style:other';
export const STYLE_MIN_SHARE = 0.75;

/** How the session's commits are written (undefined when it made none): one candidate when they follow Conventional Commits. Pure. */
export function mineCommitStyle(observations: readonly Obs[]): { style?: 'conventional' | 'other'; candidates: Candidate[] } {
  const commits = commitsOf(observations);
  if (commits.length === 0) return { candidates: [] };
  const conventional = commits.filter((c) => CONVENTIONAL.test(c.m));
  const last = conventional.at(-1);
  if (!last || conventional.length < commits.length * SHARE) return { style: 'other', candidates: [] };
  return { style: 'conventional', candidates: [conventionalCandidate(last, conventional, commits.length)] };
}

function conventionalCandidate(last: { o: Obs; m: string }, conventional: readonly { m: string }[], total: number): Candidate {
  const where = last.o.projectName || 'this project';
  const types = [...new Set(conventional.map((c) => (CONVENTIONAL.exec(c.m) as RegExpExecArray)[1] as string))];
  const example = truncate(last.m, 80);
  return {
    ...seenIn(last.o),
    key: `pref:${slugify(where)}/commit-style=conventional`,
    category: 'preference',
    domain: 'git',
    title: `${where}: Conventional Commits`,
    trigger: `when writing a commit message in ${where}`,
    action: `Write it as a Conventional Commit, \`type(scope): summary\` (e.g. "${example}"): this project's commits are written that way.`,
    explain: `${conventional.length} of ${total} commits in a session of ${where} were Conventional Commits (${types.join(', ')}).`,
    evidence: conventional.slice(0, 3).map((c) => `committed "${truncate(c.m, 80)}"`),
    subjects: ['git commit', 'Conventional Commits', ...types],
    miner: 'commit-style',
    notable: false,
    tags: ['git', 'commit-style'],
    facts: { types },
  };
}

/**
 * Files edited together: project knowledge a fresh session lacks ("change the schema and
 * the migration list together"). One candidate per pair edited in the same session; the
 * apply step checks across sessions that the pair is edited together nearly always, not
 * just often.
 */
import { basename, dirname, extname } from 'node:path';
import { commitMessage } from '../../core/shell.js';
import { slugify, truncate } from '../../core/text.js';
import { type Obs, isBash, isEdit, relativeToCwd } from '../observation.js';
import { type Candidate, backtick, quotedIn } from './candidate.js';

/** Sessions that touch more files than this are broad refactors: weak evidence for a pair. */
const MAX_FILES_FOR_PAIRS = 12;
/** Together / either: the share of sessions editing one of the pair that edit both. */
export const MIN_TOGETHER_RATIO = 0.75;
/** A learned pair stays until fewer than half do: one session editing a file alone must not flip it (3 of 4, then 3 of 5). */
export const KEEP_TOGETHER_RATIO = 0.5;

/** Project-relative files the session edited, in first-edit order. */
export function editedProjectFiles(observations: readonly Obs[]): string[] {
  const files: string[] = [];
  for (const o of observations) {
    if (!isEdit(o)) continue;
    for (const f of o.files) {
      const rel = relativeToCwd(f, o.cwd);
      if (rel && !files.includes(rel)) files.push(rel);
    }
  }
  return files;
}

const stem = (file: string): string =>
  basename(file, extname(file))
    .replace(/(_test|\.test|\.spec|_spec)$/, '')
    .replace(/^test_/, '');
const GENERATED_PAIRS: readonly [RegExp, RegExp][] = [
  [/(^|\/)package\.json$/, /(^|\/)(package-lock\.json|pnpm-lock\.yaml|yarn\.lock|bun\.lockb?)$/],
  [/(^|\/)go\.mod$/, /(^|\/)go\.sum$/],
  [/(^|\/)Cargo\.toml$/, /(^|\/)Cargo\.lock$/],
  [/(^|\/)pyproject\.toml$/, /(^|\/)(poetry\.lock|uv\.lock)$/],
  [/(^|\/)Gemfile$/, /(^|\/)Gemfile\.lock$/],
];

/** A source file with its own test, or a manifest with its lock file: pairs everyone expects. */
export function isObviousPair(a: string, b: string): string | undefined {
  const isTest = (f: string): boolean => /(_test|\.test|\.spec|_spec)\.\w+$|(^|\/)test_[^/]+$/.test(f);
  if (isTest(a) !== isTest(b) && stem(a) === stem(b)) return 'a file and its own test';
  for (const [x, y] of GENERATED_PAIRS) {
    if ((x.test(a) && y.test(b)) || (x.test(b) && y.test(a))) return 'a manifest and its lock file';
  }
  return undefined;
}

export function pairKey(projectName: string, a: string, b: string): string {
  const [x, y] = [a, b].sort();
  return `combo:${slugify(projectName || 'project', 40)}:${x}+${y}`;
}

/** What the session's first commit said it did (its subject line): the reason files changed together, when there is one. */
function commitSubject(observations: readonly Obs[]): string | undefined {
  for (const o of observations) {
    const message = isBash(o) ? commitMessage(o.input) : undefined;
    const subject = message?.split('\n')[0]?.trim();
    if (subject) return truncate(subject, 100);
  }
  return undefined;
}

export function mineCoedits(observations: readonly Obs[]): Candidate[] {
  const files = editedProjectFiles(observations);
  if (files.length < 2 || files.length > MAX_FILES_FOR_PAIRS) return [];
  const last = [...observations].reverse().find(isEdit) as Obs;
  const where = last.projectName || 'this project';
  const subject = commitSubject(observations);
  const why = subject ? `, committed as "${subject.replace(/"/g, "'")}"` : '';
  const out: Candidate[] = [];
  for (let i = 0; i < files.length; i++) {
    for (let j = i + 1; j < files.length; j++) {
      const [a, b] = [files[i] as string, files[j] as string].sort() as [string, string];
      const sameDir = dirname(a) === dirname(b);
      out.push({
        key: pairKey(where, a, b),
        category: 'combo',
        domain: 'architecture',
        title: `${basename(a)} and ${basename(b)} change together`,
        trigger: `when editing ${backtick(a)} or ${backtick(b)} in ${where}`,
        action: `Update the other file too: ${backtick(a)} and ${backtick(b)} are edited together.`,
        explain: `In ${where}, sessions that edit one of ${backtick(a)}, ${backtick(b)} edit the other${sameDir ? '' : ' (in another directory)'}.`,
        project: last.project,
        projectName: where,
        sessionId: last.sessionId,
        ts: last.ts,
        evidence: [`edited ${backtick(a)} and ${backtick(b)} in the same session${why}`],
        subjects: [a, b],
        miner: 'co-edit',
        notable: false,
        tags: ['architecture', 'co-edit'],
        facts: { files: [a, b] },
      });
    }
  }
  return out;
}

/** A co-edit instinct says why the files change together in the words of the sessions' commits. */
export function withCoeditReasons(c: Candidate, examples: readonly string[]): Candidate {
  const reasons = c.miner === 'co-edit' ? quotedIn(examples) : [];
  return reasons.length ? { ...c, action: `${c.action} The sessions' commits: ${reasons.map((r) => `"${r}"`).join('; ')}.` } : c;
}

/** Co-edit instincts a finished session contradicts: it edited one file of the pair but not the other. */
export function contradictedPairs(
  pairs: readonly { key: string; files: readonly [string, string] }[],
  edited: readonly string[],
): string[] {
  const set = new Set(edited);
  return pairs.filter((p) => set.has(p.files[0]) !== set.has(p.files[1])).map((p) => p.key);
}

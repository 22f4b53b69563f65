/**
 * Calls a person refused: a shell command the agent started unasked and the user stopped,
 * with what they said. The same kind of command refused in several sessions is a standing
 * rule ("do not run the slow suites unless asked", "do not commit unless asked"). Commands
 * are grouped by what they do, not by their text: git writes together, the variants of one
 * project task together. Pure functions, no I/O.
 */
import { slugify, truncate } from '../../core/text.js';
import { type Obs, isBash } from '../observation.js';
import { type Candidate, backtick, seenIn } from './candidate.js';
import { isNoise, splitCommand } from './commands.js';

const REJECTED = /^rejected by the user(?::\s*(.*))?$/s;
const GIT_WRITES = /^git (?:commit|push)\b/;

interface Refused {
  /** Stable across sessions: what kind of command was refused. */
  slug: string;
  /** How the rule names it to a reader. */
  what: string;
  /** The rule's action. */
  action: string;
}

/** What kind of command a refused segment is; undefined for commands too ad hoc to group. */
export function refusedKind(signature: string): Refused | undefined {
  if (GIT_WRITES.test(signature)) {
    return { slug: 'git-commit-push', what: '`git commit` / `git push`', action: 'Do not commit or push unless the user asks for it' };
  }
  if (signature.startsWith('git ') && signature !== 'git stash') return undefined;
  if (isNoise(signature)) return undefined;
  // `mise run test:ci` and `mise run test:integration` are one family: the task's longer variants.
  const variant = /^(.+? [\w.-]+):[\w:.-]+$/.exec(signature);
  if (variant) {
    const family = `${variant[1] as string}:*`;
    return {
      slug: slugify(`${variant[1] as string} variants`),
      what: backtick(family),
      action: `Do not run ${backtick(family)} (e.g. ${backtick(signature)}) unless the user asks for it`,
    };
  }
  return { slug: slugify(signature), what: backtick(signature), action: `Do not run ${backtick(signature)} unless the user asks for it` };
}

/** What the person said when refusing, or '' when they only stopped the call. */
export function refusalReason(error: string): string | undefined {
  const m = REJECTED.exec(error.trim());
  return m ? (m[1] ?? '').trim() : undefined;
}

/**
 * Whether a refusal's words are about the refused command: they name part of it, or are a
 * short verdict ("too slow."). A long reason about something else (the user redirecting the
 * work) is not quoted as the rule's why.
 */
export function reasonIsAbout(reason: string, signature: string): boolean {
  const words = reason.toLowerCase().match(/[a-z][\w:-]*/g) ?? [];
  const named = signature
    .toLowerCase()
    .split(/[\s:]+/)
    .filter((w) => w.length > 2 && !['git', 'run', 'mise', 'npm', 'make'].includes(w));
  return words.length <= 5 || named.some((n) => words.some((w) => w.startsWith(n)));
}

/** One candidate per kind of command the user refused in this session. */
export function mineRejections(observations: readonly Obs[]): Candidate[] {
  const out = new Map<string, Candidate>();
  for (const o of observations) {
    if (!isBash(o) || o.outcome !== 'blocked') continue;
    const reason = refusalReason(o.error);
    if (reason === undefined) continue;
    for (const segment of splitCommand(o.input)) {
      const kind = refusedKind(segment.signature);
      if (!kind || out.has(kind.slug)) continue;
      const where = o.projectName || 'this project';
      const said = reason && reasonIsAbout(reason, segment.signature) ? `: "${truncate(reason, 160)}"` : '';
      out.set(kind.slug, {
        key: `pref:${slugify(where)}/unasked=${kind.slug}`,
        category: 'preference',
        domain: kind.slug.startsWith('git') ? 'git' : 'tooling',
        title: `${where}: ${kind.what} only when asked`,
        trigger: `when about to run ${kind.what} in ${where} without being asked`,
        action: `${kind.action}: users here stopped it when the agent ran it on its own.`,
        explain: `The user refused ${backtick(truncate(o.input, 100))}${said}.`,
        evidence: [`refused ${backtick(truncate(segment.signature, 80))}${said}`],
        subjects: [segment.signature],
        miner: 'rejection',
        notable: true,
        tags: ['rejection'],
        ...seenIn(o),
        facts: { refused: kind.slug, reason },
      });
    }
  }
  return [...out.values()];
}

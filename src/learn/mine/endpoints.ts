/**
 * API recipes: the `gh api` endpoints a project's sessions call to get work done (reading a
 * pull request's review comments, replying to one). The path is project knowledge an agent
 * otherwise guesses and gets wrong (a 404 for a reply URL without the PR number). Paths are
 * kept with numbers as `{n}` and grouped by resource, so every PR and comment adds up.
 * Pure functions, no I/O.
 */
import { shellWords } from '../../core/shell.js';
import { slugify } from '../../core/text.js';
import { type Obs, isBash } from '../observation.js';
import { type Candidate, backtick, seenIn, tallyExamples } from './candidate.js';
import { splitCommand } from './commands.js';

const FIELD_FLAGS = new Set(['-f', '-F', '--field', '--raw-field']);
const METHOD_FLAGS = new Set(['-X', '--method']);
/** Flags of `gh api` whose value is the next word. */
const VALUED = new Set([...FIELD_FLAGS, ...METHOD_FLAGS, '-H', '--header', '--jq', '-q', '--template', '-t', '--input', '--hostname']);

export interface Endpoint {
  method: string;
  path: string;
  /** Field names sent, e.g. `body`. */
  fields: string[];
  /** The resource the endpoint belongs to: `repos/o/r/pulls`. */
  family: string;
}

/** The endpoint one `gh api` segment calls, or undefined when it names none. */
export function endpointOf(segment: string): Endpoint | undefined {
  const words = shellWords(segment);
  const at = words.findIndex((w, i) => w === 'api' && words[i - 1]?.endsWith('gh'));
  if (at < 0) return undefined;
  let method = '';
  let path = '';
  const fields: string[] = [];
  for (let i = at + 1; i < words.length; i++) {
    const w = words[i] as string;
    const value = VALUED.has(w) ? (words[++i] ?? '') : undefined;
    if (METHOD_FLAGS.has(w)) method = value?.toUpperCase() ?? '';
    else if (FIELD_FLAGS.has(w) && value) fields.push(value.split('=')[0] as string);
    else if (value === undefined && !w.startsWith('-') && !path) path = w;
  }
  const clean = path
    .replace(/^\/+/, '')
    .replace(/[?#].*$/, '')
    .replace(/\/\d+(?=\/|$)/g, '/{n}')
    .replace(/\/+$/, '');
  if (!/^[\w.{}-]+(?:\/[\w.{}-]+)+$/.test(clean)) return undefined;
  const parts = clean.split('/');
  const family = parts.slice(0, parts[0] === 'repos' ? 4 : 2).join('/');
  // gh sends POST once fields are given and no method is named.
  return { method: method || (fields.length ? 'POST' : 'GET'), path: clean, fields: [...new Set(fields)].sort(), family };
}

export const endpointText = (e: Endpoint): string =>
  `gh api ${e.method === 'GET' ? '' : `-X ${e.method} `}${e.path}${e.fields.map((f) => ` -f ${f}=…`).join('')}`;

const actionFor = (family: string, calls: readonly string[]): string =>
  `Call ${calls.map(backtick).join(', ')} (numbers as \`{n}\`): the endpoints of \`${family}\` this project's sessions used; quote a path that carries \`?\`.`;

/** GitHub's resource names as people say them. */
const SPOKEN: Readonly<Record<string, string>> = {
  pulls: 'pull requests (PRs)',
  issues: 'issues',
  actions: 'workflow runs',
  releases: 'releases',
};

/** "when reading or answering pull requests (PRs), their comments and replies through the GitHub API in cli". */
function triggerFor(family: string, calls: readonly string[], where: string): string {
  const resource = family.split('/').at(-1) ?? family;
  const parts = new Set(
    calls.flatMap((c) =>
      (c.split(' ').find((w) => w.startsWith(family)) ?? '')
        .slice(family.length)
        .split('/')
        .filter((p) => /^[a-z_]+$/.test(p)),
    ),
  );
  const sub = parts.size ? `, their ${[...parts].slice(0, 3).join(', ')}` : '';
  return `when reading or answering ${SPOKEN[resource] ?? resource}${sub} through the GitHub API in ${where}`;
}

/** One candidate per API resource the session called successfully. */
export function mineEndpoints(observations: readonly Obs[]): Candidate[] {
  const byFamily = new Map<string, { o: Obs; calls: string[] }>();
  for (const o of observations) {
    if (!isBash(o) || o.outcome !== 'ok') continue;
    for (const segment of splitCommand(o.input)) {
      if (!segment.signature.startsWith('gh api')) continue;
      const e = endpointOf(segment.text);
      if (!e) continue;
      const entry = byFamily.get(e.family) ?? { o, calls: [] };
      const text = endpointText(e);
      if (!entry.calls.includes(text)) entry.calls.push(text);
      byFamily.set(e.family, { o, calls: entry.calls });
    }
  }
  return [...byFamily].map(([family, { o, calls }]) => {
    const where = o.projectName || 'this project';
    return {
      key: `pref:${slugify(where)}/api=${slugify(family)}`,
      category: 'preference',
      domain: 'tooling',
      title: `${where}: the \`gh api\` endpoints of ${family}`,
      trigger: triggerFor(family, calls, where),
      action: actionFor(family, calls.slice(0, 5)),
      explain: `Called ${calls.map(backtick).join(', ')}.`,
      evidence: [calls.join('; ')],
      subjects: [family, ...calls],
      miner: 'api',
      notable: false,
      tags: ['tooling', 'api'],
      ...seenIn(o),
      facts: { family, calls },
    };
  });
}

/** The instinct's action from every session that backs it: the endpoints most sessions called first. */
export function withEndpoints(c: Candidate, examples: readonly string[]): Candidate {
  const family = c.facts?.family;
  if (c.miner !== 'api' || typeof family !== 'string') return c;
  const calls = tallyExamples(examples).map(([call]) => call);
  return calls.length
    ? { ...c, trigger: triggerFor(family, calls, c.projectName || 'this project'), action: actionFor(family, calls.slice(0, 5)) }
    : c;
}

/**
 * What a project's layout asks of a change, read from the files its sessions edit together:
 * parallel implementations (`agent/claudecode/hooks.go` and `agent/geminicli/hooks.go`) that
 * change as one, and a docs folder kept in step with the code. Both are knowledge about the
 * whole group, not about one pair of files. Pure functions, no I/O.
 */
import { slugify } from '../../core/text.js';
import { type Obs, isEdit } from '../observation.js';
import { type Candidate, backtick, seenIn, tallyExamples } from './candidate.js';
import { editedProjectFiles } from './coedits.js';

const tokens = (file: string): string[] => file.split(/[/_.-]+/).filter(Boolean);
/** Folders that support the code rather than implement a variant of it. */
const SUPPORT = /^(?:tests?|testdata|testutil|fixtures?|mocks?|examples?|vendor|internal)$/;
const isDoc = (file: string): boolean => /\.(?:md|mdx|rst|adoc)$/i.test(file);

/**
 * The two variants that tell two files apart when everything else in their paths is equal:
 * sibling folders holding the same file (`agent/claudecode/hooks.go` and
 * `agent/geminicli/hooks.go` give `claudecode` / `geminicli`).
 */
export function variantsOf(a: string, b: string): [string, string] | undefined {
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.length !== tb.length || isDoc(a) || isDoc(b)) return undefined;
  const diff = ta.map((t, i) => i).filter((i) => ta[i] !== tb[i]);
  if (diff.length !== 1) return undefined;
  const i = diff[0] as number;
  const [x, y] = [ta[i] as string, tb[i] as string];
  if (/^\d+$|^v?\d/.test(x) || /^\d+$|^v?\d/.test(y) || x.length < 3 || y.length < 3) return undefined;
  // Only sibling folders holding the same file are variants: two names in one folder (`auto_commit.go`,
  // `manual_commit.go`) are as often two roles as two implementations.
  if (i >= tokens(a.slice(0, a.lastIndexOf('/') + 1)).length) return undefined;
  if (SUPPORT.test(x) || SUPPORT.test(y)) return undefined;
  return [x, y].sort() as [string, string];
}

const parallelAction = (x: string, y: string, pairs: readonly string[]): string =>
  `Apply the same change to the \`${x}\` and the \`${y}\` side: the project keeps parallel implementations for them (${pairs.slice(0, 3).join(', ')}), and sessions here changed both together, with tests for each.`;

/** One candidate per pair of variants whose files this session edited side by side. */
export function mineParallels(observations: readonly Obs[]): Candidate[] {
  const files = editedProjectFiles(observations).filter((f) => !isDoc(f));
  const last = [...observations].reverse().find(isEdit);
  if (!last || files.length < 2) return [];
  const found = new Map<string, string[]>();
  for (let i = 0; i < files.length; i++)
    for (let j = i + 1; j < files.length; j++) {
      const v = variantsOf(files[i] as string, files[j] as string);
      if (!v) continue;
      const pairs = found.get(v.join('|')) ?? [];
      // One order for a pair whatever order a session edited them in: sessions' examples are tallied as written.
      const [a, b] = [files[i] as string, files[j] as string].sort();
      pairs.push(`${backtick(a as string)} and ${backtick(b as string)}`);
      found.set(v.join('|'), pairs);
    }
  const where = last.projectName || 'this project';
  return [...found].map(([variants, pairs]) => {
    const [x, y] = variants.split('|') as [string, string];
    return {
      ...seenIn(last),
      key: `combo:${slugify(where, 40)}:parallel=${x}+${y}`,
      category: 'combo',
      domain: 'architecture',
      title: `${where}: ${x} and ${y} change together`,
      trigger: `when changing the ${x} or the ${y} side of ${where}`,
      action: parallelAction(x, y, pairs),
      explain: `Edited ${pairs.slice(0, 3).join(', ')} in one session.`,
      evidence: [pairs.join('; ')],
      subjects: [x, y],
      miner: 'co-edit',
      notable: false,
      tags: ['architecture', 'parallel'],
      facts: { variants: [x, y] },
    };
  });
}

/** The docs folder a page lives in (`docs/architecture`), or undefined for a page outside one. */
export function docsFolder(file: string): string | undefined {
  const m = /^((?:[\w.-]+\/)*?docs?)\/(?:([\w.-]+)\/)?[^/]+$/i.exec(file);
  if (!m || !isDoc(file)) return undefined;
  return m[2] ? `${m[1] as string}/${m[2]}` : (m[1] as string);
}

const docsAction = (folder: string, pages: readonly string[]): string =>
  `When the change alters behaviour, update the matching page under \`${folder}/\` (${pages
    .slice(0, 4)
    .map(backtick)
    .join(', ')}) in the same branch, checked against the code: sessions here kept the docs in step.`;

/** One candidate per docs folder whose pages this session edited along with code. */
export function mineDocsInStep(observations: readonly Obs[]): Candidate[] {
  const files = editedProjectFiles(observations);
  const last = [...observations].reverse().find(isEdit);
  if (!last || !files.some((f) => !isDoc(f))) return [];
  const byFolder = new Map<string, string[]>();
  for (const f of files) {
    const folder = docsFolder(f);
    if (folder) byFolder.set(folder, [...(byFolder.get(folder) ?? []), f.slice(folder.length + 1)]);
  }
  const where = last.projectName || 'this project';
  return [...byFolder].map(([folder, pages]) => ({
    ...seenIn(last),
    key: `combo:${slugify(where, 40)}:docs=${slugify(folder)}`,
    category: 'combo',
    domain: 'documentation',
    title: `${where}: ${folder}/ is kept in step with the code`,
    trigger: `when changing behaviour that ${folder}/ describes in ${where}`,
    action: docsAction(folder, pages),
    explain: `Edited ${pages.map(backtick).join(', ')} under ${folder}/ along with code.`,
    evidence: [pages.join('; ')],
    subjects: [folder, ...pages],
    miner: 'co-edit',
    notable: false,
    tags: ['documentation'],
    facts: { folder },
  }));
}

/** The instinct's text from every session that backs it: the pages or pairs most sessions touched. */
export function withStructure(c: Candidate, examples: readonly string[]): Candidate {
  const items = tallyExamples(examples).map(([item]) => item);
  if (items.length === 0) return c;
  if (typeof c.facts?.folder === 'string') return { ...c, action: docsAction(c.facts.folder, items) };
  const v = c.facts?.variants;
  if (Array.isArray(v) && v.length === 2) return { ...c, action: parallelAction(String(v[0]), String(v[1]), items) };
  return c;
}
